"""JAX: jax.vjp returns f(x) and a pullback; pullback(v) is the vector-Jacobian product v^T J."""
import jax
import jax.numpy as jnp
import numpy as np

rng = np.random.default_rng(0)  # numpy gives both tabs the same float32 data
W = rng.normal(size=(3, 4)).astype(np.float32)
x0 = rng.normal(size=4).astype(np.float32)
v = rng.normal(size=3).astype(np.float32)  # one weight per output


def f(x):
    return jnp.tanh(W @ x)  # 4 inputs -> 3 outputs


with jax.default_matmul_precision("highest"):  # float32 products (no TF32 or bf16): compared with float64 below
    y, f_vjp = jax.vjp(f, x0)
    (vjp_jax,) = f_vjp(v)  # v has the shape of y; the result has the shape of x
    (row0,) = f_vjp(jnp.array([1.0, 0.0, 0.0]))  # the same pullback, another cotangent, f not rerun
    jac = jax.jacrev(f)(x0)

exact = W.T.astype(np.float64) @ ((1 - np.tanh(W.astype(np.float64) @ x0) ** 2) * v)  # v^T J by hand
print("jax.vjp:          ", np.asarray(vjp_jax))
print("NumPy closed form:", exact.astype(np.float32))
# float32 rounding on the CPU; off it, tanh has its own approximation (a TPU's differs by ~1e-6 to 1e-5).
tol = 1e-5 if jax.default_backend() == "cpu" else 1e-4
gap = np.abs(vjp_jax - exact).max()
print(f"max |jax.vjp - closed form| = {gap:.1e}, tolerance on {jax.default_backend()}: {tol:.0e}")
assert vjp_jax.shape == x0.shape
assert np.allclose(vjp_jax, exact, atol=tol)
assert jnp.allclose(row0, jac[0], atol=1e-6)  # e_0^T J is the first row of J
