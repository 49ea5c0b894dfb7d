"""fold_in derives a key from a base key and an integer, such as a step or an example index."""
import jax
import jax.numpy as jnp

base = jax.random.key(42)


def bits(k):
    return jax.random.key_data(k)


# Deterministic: the same (key, integer) pair always gives the same key.
assert jnp.array_equal(bits(jax.random.fold_in(base, 3)), bits(jax.random.fold_in(base, 3)))
# Different integers give different keys.
assert not jnp.array_equal(bits(jax.random.fold_in(base, 3)), bits(jax.random.fold_in(base, 4)))


def noise_for_example(index):
    return jax.random.normal(jax.random.fold_in(base, index), (2,))


# One key per example inside vmap, with no counter to keep in sync.
batch = jax.vmap(noise_for_example)(jnp.arange(4))
print(batch)
assert batch.shape == (4, 2)
# Row i matches what a plain Python loop over i would give.
for i in range(4):
    assert jnp.allclose(batch[i], noise_for_example(i))
