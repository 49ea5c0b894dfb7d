"""JAX: jax.jvp pushes a tangent u forward and returns (f(x), J u) in one pass."""
import jax
import jax.numpy as jnp
import numpy as np

rng = np.random.default_rng(0)  # numpy gives both tabs the same float32 data
W = rng.normal(size=(3, 4)).astype(np.float32)
x0 = rng.normal(size=4).astype(np.float32)
u = rng.normal(size=4).astype(np.float32)  # one direction in input space


def f(x):
    return jnp.tanh(W @ x)


with jax.default_matmul_precision("float32"):  # no TF32 on a GPU: compared with float64 below
    y, jvp_jax = jax.jvp(f, (x0,), (u,))  # primals and tangents are tuples, one entry per argument
    jac_u = jax.jacfwd(f)(x0) @ u  # J u from the full Jacobian, for comparison

W64 = W.astype(np.float64)
exact = (1 - np.tanh(W64 @ x0) ** 2) * (W64 @ u)  # J u by hand
print("f(x):             ", np.asarray(y))
print("jax.jvp:          ", np.asarray(jvp_jax))
print("NumPy closed form:", exact.astype(np.float32))
assert jvp_jax.shape == y.shape
assert np.allclose(jvp_jax, exact, atol=1e-5)
assert jnp.allclose(jvp_jax, jac_u, atol=1e-6)  # jax.jvp gave J u without forming J
