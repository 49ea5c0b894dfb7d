"""JAX per-example gradients: jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))."""
import jax
import jax.numpy as jnp
import numpy as np

rng = np.random.default_rng(0)  # numpy gives both tabs the same float32 data
xs = rng.normal(size=(8, 3)).astype(np.float32)
ys = rng.normal(size=8).astype(np.float32)
w = rng.normal(size=3).astype(np.float32)


def loss(w, x, y):  # written for ONE example: x has shape (3,), y is a scalar
    return (jnp.tanh(x @ w) - y) ** 2


per_example = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))(w, xs, ys)  # w shared
print("per-example gradients:", per_example.shape)
print("example 0:", np.asarray(per_example[0]))

batch = jax.grad(lambda w: jnp.mean((jnp.tanh(xs @ w) - ys) ** 2))(w)  # the usual batch gradient
print("mean over examples:", np.asarray(per_example.mean(axis=0)), " batch:", np.asarray(batch))
assert per_example.shape == (8, 3)
assert jnp.allclose(per_example.mean(axis=0), batch, atol=1e-6)
assert jnp.allclose(per_example[5], jax.grad(loss)(w, xs[5], ys[5]), atol=1e-6)
