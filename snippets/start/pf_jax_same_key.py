"""JAX: the key is an explicit value; the same key always gives the same numbers."""
import jax
import jax.numpy as jnp

key = jax.random.key(0)
a = jax.random.normal(key, (3,))
b = jax.random.normal(key, (3,))  # same key, same numbers: nothing advanced
print("normal(key) #1:", a)
print("normal(key) #2:", b)
assert jnp.array_equal(a, b)

# To get new numbers, derive new keys explicitly and use each one once.
key, subkey = jax.random.split(key)
c = jax.random.normal(subkey, (3,))
print("normal(subkey):", c)
assert not jnp.array_equal(a, c)
