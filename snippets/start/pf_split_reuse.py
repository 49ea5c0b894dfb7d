"""split makes fresh keys; drawing twice from one key repeats the same numbers."""
import jax
import jax.numpy as jnp

key = jax.random.key(0)

# Bug: two draws meant to be independent reuse one key, so they are identical.
init_noise = jax.random.normal(key, (4,))
dropout_noise = jax.random.normal(key, (4,))
print("reused key:", init_noise, dropout_noise, sep="\n  ")
assert jnp.array_equal(init_noise, dropout_noise)

# Fix: split first, then use each new key exactly once.
init_key, dropout_key = jax.random.split(key)
init_noise = jax.random.normal(init_key, (4,))
dropout_noise = jax.random.normal(dropout_key, (4,))
print("split keys:", init_noise, dropout_noise, sep="\n  ")
assert not jnp.array_equal(init_noise, dropout_noise)

# split(key, n) returns an array of n keys; splitting is itself deterministic.
keys = jax.random.split(key, 4)
print("split(key, 4):", keys.shape, keys.dtype)
assert keys.shape == (4,)
again = jax.random.split(key, 4)
assert jnp.array_equal(jax.random.key_data(keys), jax.random.key_data(again))
