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


with jax.default_matmul_precision("highest"):  # float32 products (no TF32 or bf16): compared with float64 below
    y, jvp_jax = jax.jvp(f, (x0,), (u,))  # primals and tangents are tuples, one entry per argument
    jac_u = jax.jacfwd(f)(x0) @ u  # J u from the full Jacobian, for comparison

W64 = W.astype(np.float64)
exact = (1 - np.tanh(W64 @ x0) ** 2) * (W64 @ u)  # J u by hand
print("f(x):             ", np.asarray(y))
print("jax.jvp:          ", np.asarray(jvp_jax))
print("NumPy closed form:", exact.astype(np.float32))
# float32 rounding on the CPU; off it, tanh has its own approximation (a TPU's differs by ~1e-6 to 1e-5).
tol = 1e-5 if jax.default_backend() == "cpu" else 1e-4
gap = np.abs(jvp_jax - exact).max()
print(f"max |jax.jvp - closed form| = {gap:.1e}, tolerance on {jax.default_backend()}: {tol:.0e}")
assert jvp_jax.shape == y.shape
assert np.allclose(jvp_jax, exact, atol=tol)
assert jnp.allclose(jvp_jax, jac_u, atol=1e-6)  # jax.jvp gave J u without forming J
