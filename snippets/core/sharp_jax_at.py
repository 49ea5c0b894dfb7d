"""JAX: arrays are immutable; .at[...] returns an updated copy and leaves the original alone."""
import jax.numpy as jnp

x = jnp.arange(5.0)
alias = x

try:
    x[0] = 10.0
except TypeError as err:
    assign_error = err
print("x[0] = 10.0 ->", type(assign_error).__name__, str(assign_error).split(": http")[0])
assert "JAX arrays are immutable" in str(assign_error) and ".at[idx].set(y)" in str(assign_error)
try:
    x.add_(1.0)
except AttributeError as err:
    method_error = err
print("x.add_(1.0) ->", type(method_error).__name__, method_error)
assert "add_" in str(method_error)  # there are no in-place methods

y = x.at[0].set(10.0)  # a new array with one element changed
before = y
y += 1.0  # allowed, but not in place: y is rebound to a new array
assert y is not before and float(before[0]) == 10.0  # the old array is unchanged
y = jnp.where(y > 5, 0.0, y)  # masked update, see below
print("y:", y)
print("x:", x)
assert y.tolist() == [0.0, 2.0, 3.0, 4.0, 5.0]
assert x.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0] and alias is x  # untouched
