"""fold_in(key, i) and split(key, n)[i] give the same key: derive them from different parents."""
import jax
import jax.numpy as jnp


def same(a, b):
    return bool(jnp.array_equal(jax.random.key_data(a), jax.random.key_data(b)))


key = jax.random.key(0)
# The defaults under which the equality below holds.
assert jax.random.key_impl(key) == "threefry2x32" and jax.config.jax_threefry_partitionable
example_keys = jax.random.split(key, 4)  # e.g. one key per example
step_key = jax.random.fold_in(key, 0)  # e.g. the key for step 0, from the same parent
print("fold_in(key, i) == split(key, 4)[i]:",
      [same(jax.random.fold_in(key, i), example_keys[i]) for i in range(4)])
assert all(same(jax.random.fold_in(key, i), example_keys[i]) for i in range(4))
# So the "independent" step noise is the noise of example 0.
assert jnp.array_equal(jax.random.normal(step_key, (3,)), jax.random.normal(example_keys[0], (3,)))

# The key-reuse checker does not flag this: fold_in does not consume its key.
with jax.debug_key_reuse(True):
    k = jax.random.key(0)
    ks = jax.random.split(k, 4)
    kf = jax.random.fold_in(k, 0)  # no KeyReuseError
assert same(ks[0], kf)

# The fix: give each purpose its own parent key, then split or fold_in below it.
data_parent, step_parent = jax.random.split(key)
example_keys = jax.random.split(data_parent, 4)
step_keys = [jax.random.fold_in(step_parent, i) for i in range(4)]
print("after separate parents, any equal:",
      any(same(a, b) for a in example_keys for b in step_keys))
assert not any(same(a, b) for a in example_keys for b in step_keys)
