"""Shapes from split and fold_in, for typed keys and for legacy uint32 keys."""
import jax

key = jax.random.key(0)  # typed key: shape ()
legacy = jax.random.PRNGKey(0)  # legacy key: shape (2,), dtype uint32

rows = [
    ("key", key, legacy),
    ("split(key)", jax.random.split(key), jax.random.split(legacy)),
    ("split(key, 5)", jax.random.split(key, 5), jax.random.split(legacy, 5)),
    ("split(key, (2, 3))", jax.random.split(key, (2, 3)), jax.random.split(legacy, (2, 3))),
    ("fold_in(key, 7)", jax.random.fold_in(key, 7), jax.random.fold_in(legacy, 7)),
]
print(f"{'':20s} {'typed':16s} legacy")
for name, typed_keys, legacy_keys in rows:
    print(f"{name:20s} {str(typed_keys.shape):16s} {legacy_keys.shape}")
    # A typed key array has the batch shape only; a legacy one adds a trailing (2,).
    assert legacy_keys.shape == typed_keys.shape + (2,)
    assert jax.random.key_data(typed_keys).tolist() == legacy_keys.tolist()

assert jax.random.split(key).shape == (2,) and jax.random.split(key, 5).shape == (5,)
# Unpacking works for both kinds, because it walks the first axis.
a, b = jax.random.split(key)
print("one key after unpacking:", a.shape, a.dtype)
assert a.shape == ()
