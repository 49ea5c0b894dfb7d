"""Static arguments are cache keys: they must be hashable, so a list fails and a tuple works."""
import jax
import jax.numpy as jnp


def weighted_sum(x, weights):
    return sum(w * x[i] for i, w in enumerate(weights))  # a Python loop over static weights


f = jax.jit(weighted_sum, static_argnames="weights")
x = jnp.array([1.0, 2.0, 3.0])

error = None
try:
    f(x, weights=[0.5, 0.25])  # a list has no hash
except ValueError as err:
    error = err
print(type(error).__name__ + ":", " ".join(str(error).split()))
assert isinstance(error, ValueError)
assert "Non-hashable static arguments are not supported" in str(error)

# A JAX array is unhashable too: pass arrays as ordinary (traced) arguments instead.
array_error = None
try:
    f(x, weights=jnp.array([0.5, 0.25]))
except ValueError as err:
    array_error = err
assert "Non-hashable static arguments are not supported" in str(array_error)

result = f(x, weights=(0.5, 0.25))  # a tuple is hashable and immutable
print("with a tuple:", result)
assert result == 0.5 * 1.0 + 0.25 * 2.0
