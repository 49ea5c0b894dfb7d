"""JAX backward: jax.value_and_grad returns the loss and a fresh gradient pytree."""
import jax
import jax.numpy as jnp
import numpy as np

rng = np.random.default_rng(0)
x = rng.normal(size=(32, 4)).astype(np.float32)
y = np.sin(x.sum(axis=1, keepdims=True))


def dense(key, n_in, n_out):
    kw, kb = jax.random.split(key)
    s = 1 / np.sqrt(n_in)
    return {"kernel": jax.random.uniform(kw, (n_in, n_out), minval=-s, maxval=s),
            "bias": jax.random.uniform(kb, (n_out,), minval=-s, maxval=s)}


def loss_fn(params, x, y):
    h = jnp.tanh(x @ params["l1"]["kernel"] + params["l1"]["bias"])
    return jnp.mean((h @ params["l2"]["kernel"] + params["l2"]["bias"] - y) ** 2)


k1, k2 = jax.random.split(jax.random.key(0))
params = {"l1": dense(k1, 4, 8), "l2": dense(k2, 8, 1)}

# 5. backward: gradients with respect to the first argument, params.
loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
print("loss:", loss)
print("grads:", jax.tree.map(jnp.shape, grads))

assert jax.tree.structure(grads) == jax.tree.structure(params)  # same layout as params
assert jnp.allclose(loss, loss_fn(params, x, y), rtol=1e-6)  # the value is the plain loss
# Calling it again returns the same gradient: nothing accumulates anywhere.
_, again = jax.value_and_grad(loss_fn)(params, x, y)
assert all(jax.tree.leaves(jax.tree.map(jnp.array_equal, grads, again)))
