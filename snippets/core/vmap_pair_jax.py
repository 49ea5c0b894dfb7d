"""JAX: jax.vmap batches the same per-example functions; in_axes plays the role of in_dims."""
import jax
import jax.numpy as jnp
import numpy as np

xs_np = np.sin(np.arange(12.0)).astype(np.float32).reshape(4, 3)  # 4 examples
w_np = np.array([[1.0, -1.0], [0.5, 2.0], [-0.3, 0.1]], dtype=np.float32)


def predict(w, x):  # one example: x (3,) -> (2,)
    return jnp.tanh(x @ w)


def distance(p, q):  # two points (3,) -> a scalar
    return jnp.sqrt(jnp.sum((p - q) ** 2))


w, xs = jnp.asarray(w_np), jnp.asarray(xs_np)
with jax.default_matmul_precision("highest"):  # float32 products on GPUs and TPUs too, as torch on CPU
    preds = jax.vmap(predict, in_axes=(None, 0))(w, xs)  # None: w is shared
    dists = jax.vmap(jax.vmap(distance, in_axes=(None, 0)), in_axes=(0, None))(xs, xs)
    # The counterpart of chunk_size: lax.map runs vmap over 2 examples at a time.
    chunked = jax.lax.map(lambda x: predict(w, x), xs, batch_size=2)
print("predictions:\n", np.round(np.asarray(preds), 4))
print("distances:\n", np.round(np.asarray(dists), 4))

assert jnp.allclose(chunked, preds, atol=1e-6)
# The NumPy formulas that the PyTorch tab checks against too (off the CPU tanh differs slightly).
tol = 1e-6 if jax.default_backend() == "cpu" else 1e-4
assert np.allclose(preds, np.tanh(xs_np @ w_np), atol=tol)
assert np.allclose(dists, np.linalg.norm(xs_np[:, None] - xs_np[None], axis=-1), atol=tol)
