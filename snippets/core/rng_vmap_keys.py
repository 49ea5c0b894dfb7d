"""Per-example randomness: split a batch of keys and vmap over keys and data together."""
import jax
import jax.numpy as jnp


def dropout(key, x, rate=0.5):
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)  # written for ONE example
    return jnp.where(keep, x / (1.0 - rate), 0.0)


x = jnp.ones((4, 6))  # a batch of 4 examples
keys = jax.random.split(jax.random.key(0), 4)  # one key per example

# Samplers take exactly one key; a batch of keys (typed or legacy) is an error.
messages = []
for batch in (keys, jax.random.split(jax.random.PRNGKey(0), 4)):
    try:
        jax.random.bernoulli(batch, 0.5, (6,))
    except ValueError as err:
        messages.append(str(err))
print(*messages, sep="\n")
assert len(messages) == 2 and all("Use jax.vmap" in m for m in messages)
assert "shape (4,)" in messages[0] and "shape (4, 2)" in messages[1]

out = jax.jit(jax.vmap(dropout))(keys, x)  # maps axis 0 of keys and of x together
print(out)
assert out.shape == (4, 6)
# Each row equals the single-example call with its own key.
for i in range(4):
    assert jnp.array_equal(out[i], dropout(keys[i], x[i]))
# Different keys, different masks (with this seed, no two rows are equal).
assert len({tuple(row.tolist()) for row in out}) == 4

# A grid of keys for nested vmaps: split(key, (4, 3)) has shape (4, 3).
grid = jax.random.split(jax.random.key(1), (4, 3))
noise = jax.vmap(jax.vmap(lambda k: jax.random.normal(k, (2,))))(grid)
assert grid.shape == (4, 3) and noise.shape == (4, 3, 2)
print("grid of keys:", grid.shape, "-> noise:", noise.shape)
