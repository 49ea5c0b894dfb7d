"""Keys passed as arguments: new keys give new numbers under jit, and vmap matches a loop."""
import jax
import jax.numpy as jnp


def sample(key):
    return jax.random.normal(key, (3,))


keys = jax.random.split(jax.random.key(0), 4)

traces = []  # a trace-time side effect, used here only to count traces


@jax.jit
def sample_jit(key):
    traces.append(1)
    return sample(key)


first, second = sample_jit(keys[0]), sample_jit(keys[1])
print("jit, two keys, traces:", len(traces))
assert len(traces) == 1  # one trace serves every key...
assert not jnp.allclose(first, second)  # ...and each key gives its own numbers

loop = jnp.stack([sample(k) for k in keys])  # one call per key, in Python
batched = jax.jit(jax.vmap(sample))(keys)  # all keys at once, compiled
print(batched)
# The transformation does not change which numbers a key produces.
assert jnp.allclose(loop, batched, atol=1e-6)
assert jnp.allclose(first, loop[0], atol=1e-6)
