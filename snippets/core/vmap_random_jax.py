"""JAX: the key is an argument, so in_axes decides whether examples share random numbers."""
import jax
import jax.numpy as jnp


def add_noise(key, x):  # one example: x plus one draw from its key
    return x + jax.random.normal(key, ())


x = jnp.zeros(4)  # a batch of 4 examples
key = jax.random.key(0)

# One key per example (mapped on axis 0): different numbers, like randomness="different".
different = jax.vmap(add_noise)(jax.random.split(key, 4), x)
# One key for all (in_axes None): the same number, like randomness="same".
same = jax.vmap(add_noise, in_axes=(None, 0))(key, x)
print("different:", different)
print("same:     ", same)
assert len(set(different.tolist())) == 4 and len(set(same.tolist())) == 1
# Row i is exactly what the same key gives outside vmap.
assert jnp.allclose(different[1], add_noise(jax.random.split(key, 4)[1], 0.0))
