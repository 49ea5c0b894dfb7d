"""Donated input buffers are deleted after the call; an unusable donation only warns."""
import warnings

import jax
import jax.numpy as jnp


def sgd_step(params, grads):
    return params - 0.1 * grads  # same shape and dtype as params: XLA can reuse its buffer


step = jax.jit(sgd_step, donate_argnums=0)
params, grads = jnp.ones(4), jnp.full(4, 0.5)
new_params = step(params, grads)
print("new params:", new_params)
print("donated params deleted:", params.is_deleted(), "| grads deleted:", grads.is_deleted())
assert params.is_deleted() and not grads.is_deleted()

error = None
try:
    params + 1  # reading a donated array is an error
except RuntimeError as err:
    error = err
print("using it again:", type(error).__name__ + ":", error)
assert "Array has been deleted" in str(error)

# donate_argnames names the parameter instead; it applies however you pass the argument.
step_by_name = jax.jit(sgd_step, donate_argnames="params")
by_position, by_keyword = jnp.ones(4), jnp.ones(4)
step_by_name(by_position, grads)
step_by_name(params=by_keyword, grads=grads)
assert by_position.is_deleted() and by_keyword.is_deleted()


# No output matches a donated input (a sum is a scalar): the donation cannot be used.
total = jax.jit(lambda v: jnp.sum(v), donate_argnums=0)
v = jnp.ones(4)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    total(v)
messages = [str(w.message).splitlines()[0] for w in caught]
print("warning:", messages, "| v deleted:", v.is_deleted())
assert any("Some donated buffers were not usable" in m for m in messages)
assert not v.is_deleted()  # an unused donation leaves the array alive
