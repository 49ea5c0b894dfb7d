"""argnums picks the arguments to differentiate: an int gives one gradient, a tuple a tuple."""
import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_default_matmul_precision", "highest")  # float32 products on every backend, for the checks
rng = np.random.default_rng(0)
x = rng.normal(size=(16, 3)).astype(np.float32)
y = rng.normal(size=16).astype(np.float32)
w, b = jnp.ones(3), jnp.float32(0.5)  # JAX arrays: the check by hand below runs in JAX too


def loss(w, b, x, y):
    return jnp.mean((x @ w + b - y) ** 2)


g_w = jax.grad(loss)(w, b, x, y)  # default argnums=0: the gradient for w
g_b = jax.grad(loss, argnums=1)(w, b, x, y)  # an int: the gradient for b alone
both = jax.grad(loss, argnums=(0, 1))(w, b, x, y)  # a tuple: a tuple of gradients
print("argnums=0:", g_w.shape, " argnums=1:", g_b.shape,
      " argnums=(0, 1):", type(both).__name__, [g.shape for g in both])

r = x @ w + b - y  # by hand: d/dw = 2/n x.T r, d/db = 2 mean(r)
assert jnp.allclose(g_w, 2 * x.T @ r / len(y), atol=1e-5)
assert jnp.allclose(g_b, 2 * r.mean(), atol=1e-5)
assert isinstance(both, tuple) and len(both) == 2
assert jnp.allclose(both[0], g_w) and jnp.allclose(both[1], g_b)
assert g_b.shape == () and g_w.shape == w.shape  # each gradient is shaped like its argument
