"""A nested dict of arrays goes through jax.grad and jax.tree.map like a single array."""
import jax
import jax.numpy as jnp

# Parameters as a pytree: a dict of layers, each a dict of arrays.
params = {
    "hidden": {"kernel": jnp.full((3, 4), 0.1), "bias": jnp.zeros(4)},
    "out": {"kernel": jnp.full((4, 1), 0.1), "bias": jnp.zeros(1)},
}
x = jnp.arange(6.0).reshape(2, 3)
y = jnp.array([[1.0], [2.0]])


def loss_fn(params, x, y):
    h = jnp.tanh(x @ params["hidden"]["kernel"] + params["hidden"]["bias"])
    pred = h @ params["out"]["kernel"] + params["out"]["bias"]
    return jnp.mean((pred - y) ** 2)


loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
# One line updates every array, whatever the nesting: p - lr * g at each leaf.
new_params = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)

print("grads:", jax.tree.map(jnp.shape, grads))
print(f"loss before {loss:.4f}, after {loss_fn(new_params, x, y):.4f}")

# The gradient has exactly the structure of the parameters, leaf for leaf.
assert jax.tree.structure(grads) == jax.tree.structure(params)
assert jax.tree.map(jnp.shape, grads) == jax.tree.map(jnp.shape, params)
assert loss_fn(new_params, x, y) < loss
