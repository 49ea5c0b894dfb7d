"""A typed key from jax.random.key next to a legacy uint32 key from jax.random.PRNGKey."""
import jax
import jax.numpy as jnp

key = jax.random.key(0)  # recommended: a scalar with a special key dtype
print("typed key: shape", key.shape, "dtype", key.dtype)
assert key.shape == ()
assert jnp.issubdtype(key.dtype, jax.dtypes.prng_key)

raw = jax.random.key_data(key)  # the integers stored under the typed key
print("key_data:  shape", raw.shape, "dtype", raw.dtype)

legacy = jax.random.PRNGKey(0)  # legacy: an ordinary uint32 array
print("legacy:    shape", legacy.shape, "dtype", legacy.dtype)
assert legacy.shape == (2,) and legacy.dtype == jnp.uint32
assert not jnp.issubdtype(legacy.dtype, jax.dtypes.prng_key)

# Same seed, same bits, same samples: switching constructors keeps the numbers.
assert jnp.array_equal(raw, legacy)
assert jnp.array_equal(jax.random.normal(key, (3,)), jax.random.normal(legacy, (3,)))

# A legacy key is plain data, so arithmetic on it silently "works"...
print("legacy + 1:", legacy + 1)
assert (legacy + 1).dtype == jnp.uint32 and (legacy + 1).shape == (2,)  # just more integers
# ...while a typed key refuses, which catches mix-ups early.
error = None
try:
    key + 1
except TypeError as err:
    error = err
print(f"key + 1:    {type(error).__name__}: {str(error).splitlines()[0]}")
assert isinstance(error, TypeError)

# wrap_key_data upgrades old raw keys (for example from a checkpoint).
assert jax.random.wrap_key_data(legacy).dtype == key.dtype
