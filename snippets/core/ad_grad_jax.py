"""JAX: jax.grad(f)(w) returns the gradient of f(w) = sum(tanh(x @ w)) as a new array."""
import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_default_matmul_precision", "highest")  # float32 products on every backend, for the checks
rng = np.random.default_rng(0)  # numpy gives both tabs the same float32 data
x = rng.normal(size=(8, 3)).astype(np.float32)
w = rng.normal(size=3).astype(np.float32)


def f(w):
    return jnp.sum(jnp.tanh(x @ w))


g = jax.grad(f)(w)  # differentiates with respect to the first argument
print("jax.grad(f)(w):       ", np.asarray(g))
print("shape and dtype:", g.shape, g.dtype)

exact = jnp.dot(x.T, 1 - jnp.tanh(jnp.dot(x, w)) ** 2)  # d/dw sum(tanh(x @ w)), by hand, in JAX
assert jnp.allclose(g, exact, atol=1e-5)
assert g.shape == w.shape and g.dtype == jnp.float32  # shaped like the argument
