"""jax.debug_nans turns a silent NaN into a FloatingPointError at the operation that made it."""
import traceback

import jax
import jax.numpy as jnp


@jax.jit
def loss(x):
    y = jnp.log(x)  # NaN for negative x
    return jnp.sum(y * 2.0)


x = jnp.array([1.0, -1.0])
print("default: loss =", loss(x))  # no error, the NaN just flows on
assert bool(jnp.isnan(loss(x)))

caught = None
with jax.debug_nans(True):  # same as jax.config.update("jax_debug_nans", True), scoped
    try:
        loss(x)
    except FloatingPointError as err:
        caught = err
print("FloatingPointError:", caught)
assert isinstance(caught, FloatingPointError) and "nan" in str(caught) and "log" in str(caught)
# The traceback points at the line of your function that produced the NaN.
frames = [frame.line for frame in traceback.extract_tb(caught.__traceback__)]
print("raised from:", next(line for line in frames if "jnp.log" in line))
assert any("y = jnp.log(x)" in line for line in frames)
assert not jax.config.jax_debug_nans  # restored when the block ended
