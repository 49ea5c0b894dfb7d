"""The PRNG implementations of jax.random: pick one per key, read it back with key_impl."""
import jax
import jax.numpy as jnp

# The names listed in the jax.random module documentation.
IMPLS = ["threefry2x32", "threefry4x32", "philox2x32", "philox4x32", "rbg", "unsafe_rbg"]
print("default:", jax.config.jax_default_prng_impl)
assert jax.random.key_impl(jax.random.key(0)) == jax.config.jax_default_prng_impl == "threefry2x32"

first_draws = {}
for name in IMPLS:
    key = jax.random.key(0, dtype=name)  # dtype= picks the implementation
    words = jax.random.key_data(key)
    first_draws[name] = float(jax.random.normal(key))
    print(f"{name:13s} dtype={str(key.dtype):10s} key_data={str(words.shape):5s} "
          f"normal={first_draws[name]:+.4f}")
    assert key.shape == () and jax.random.key_impl(key) == name
# Same seed, other generator, other numbers; except that rbg and unsafe_rbg draw the same
# way (XLA's RngBitGenerator) and differ only in how split and fold_in derive keys.
assert len(set(first_draws.values())) == len(IMPLS) - 1
assert first_draws["rbg"] == first_draws["unsafe_rbg"]

# rbg and unsafe_rbg under vmap: the whole batch comes from the first key.
for name in ["threefry2x32", "rbg", "unsafe_rbg"]:
    keys = jax.random.split(jax.random.key(0, dtype=name), 4)
    mapped = jax.vmap(jax.random.normal)(keys)
    looped = jnp.stack([jax.random.normal(k) for k in keys])
    print(f"{name:13s} vmap == loop: {bool(jnp.allclose(mapped, looped))}")
    assert bool(jnp.allclose(mapped, looped)) == (name == "threefry2x32")
    if name != "threefry2x32":
        assert jnp.allclose(mapped, jax.random.normal(keys[0], (4,)))
