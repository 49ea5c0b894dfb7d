"""Gradients for a dict of parameters come back as a dict with the same keys and shapes."""
import jax
import jax.numpy as jnp
import numpy as np

rng = np.random.default_rng(0)
x = rng.normal(size=(32, 3)).astype(np.float32)
y = np.sin(x.sum(axis=1)).astype(np.float32)
params = {
    "hidden": {"kernel": jnp.full((3, 8), 0.1), "bias": jnp.zeros(8)},
    "out": {"kernel": jnp.full((8,), 0.1), "bias": jnp.zeros(())},
}


def loss(params, x, y):
    h = jnp.tanh(x @ params["hidden"]["kernel"] + params["hidden"]["bias"])
    return jnp.mean((h @ params["out"]["kernel"] + params["out"]["bias"] - y) ** 2)


grads = jax.grad(loss)(params, x, y)
print("grads:", jax.tree.map(jnp.shape, grads))
assert jax.tree.structure(grads) == jax.tree.structure(params)
assert all(g.shape == p.shape for g, p in zip(jax.tree.leaves(grads), jax.tree.leaves(params)))

h = jnp.tanh(x @ params["hidden"]["kernel"] + params["hidden"]["bias"])  # by hand, last layer
r = h @ params["out"]["kernel"] + params["out"]["bias"] - y
assert jnp.allclose(grads["out"]["bias"], 2 * r.mean(), atol=1e-6)

# One plain SGD step: the same tree.map walks params and grads together.
new_params = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
print("loss before:", loss(params, x, y), " after one step:", loss(new_params, x, y))
assert loss(new_params, x, y) < loss(params, x, y)
