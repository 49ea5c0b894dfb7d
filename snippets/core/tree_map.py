"""jax.tree.map over one pytree, and over several pytrees with the same structure."""
import jax
import jax.numpy as jnp

params = {"w": jnp.array([1.0, 2.0, 3.0]), "b": jnp.array(0.5, jnp.float32)}
grads = {"w": jnp.array([0.1, 0.2, 0.3]), "b": jnp.array(1.0, jnp.float32)}

# One tree: f gets one leaf at a time, and the result keeps the dict structure.
doubled = jax.tree.map(lambda p: 2 * p, params)
print("one tree: ", doubled)

# Several trees: f gets the leaves found at the same place in each tree.
updated = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
print("two trees:", updated)

# Leaves that are not arrays work too: here f returns a Python tuple per leaf.
shapes = jax.tree.map(jnp.shape, params)
print("shapes:   ", shapes)

assert jnp.allclose(doubled["w"], jnp.array([2.0, 4.0, 6.0]))
assert jnp.allclose(updated["w"], jnp.array([0.99, 1.98, 2.97]))
assert jnp.allclose(updated["b"], 0.4)
assert jax.tree.structure(updated) == jax.tree.structure(params)
assert shapes == {"w": (3,), "b": ()}
