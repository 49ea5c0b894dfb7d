"""jax.tree.map refuses trees whose structures differ, and says where they differ."""
import jax
import jax.numpy as jnp

params = {"w": jnp.ones(3), "b": jnp.zeros(())}
grads = {"w": jnp.ones(3)}  # a gradient pytree that lost its "b" entry

error = None
try:
    jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
except ValueError as err:
    error = err
print(type(error).__name__ + ":", error)

assert isinstance(error, ValueError)
assert "pytree structure error" in str(error)
assert "['b']" in str(error)  # the message names the missing key
# The container type is part of the structure: a list against a tuple fails the same way.
type_error = None
try:
    jax.tree.map(lambda p, g: p - g, [1.0, 2.0], (1.0, 2.0))
except ValueError as err:
    type_error = err
assert "pytree structure error" in str(type_error)
