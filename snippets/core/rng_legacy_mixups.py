"""Code written for legacy uint32 keys fails loudly on typed keys; the fixes."""
import jax
import numpy as np

keys = jax.random.split(jax.random.key(0), 3)  # typed: shape (3,)
legacy = jax.random.split(jax.random.PRNGKey(0), 3)  # legacy: shape (3, 2)


def error_of(fn):
    try:
        fn()
    except (IndexError, TypeError) as err:
        print(f"{type(err).__name__}: {str(err).splitlines()[0]}")
        return err
    raise AssertionError("expected an error")


print("legacy keys[:, 0] ->", legacy[:, 0])  # the first uint32 word of each key
# 1. Indexing into the key words: a typed key array has no trailing axis.
err = error_of(lambda: keys[:, 0])
assert isinstance(err, IndexError) and "Too many indices" in str(err)
# 2. Comparing a typed key with a legacy one.
err = error_of(lambda: keys[0] == legacy[0])
assert isinstance(err, TypeError) and "does not accept dtypes" in str(err)
# 3. Converting a typed key to NumPy, e.g. to save it.
err = error_of(lambda: np.asarray(keys))
assert isinstance(err, TypeError) and "key_data" in str(err)

# The fixes: go through the key data explicitly, in one direction or the other.
words = jax.random.key_data(keys)[:, 0]
assert words.tolist() == legacy[:, 0].tolist()
assert bool((keys == jax.random.wrap_key_data(legacy)).all())
print("key_data(keys)[:, 0] ->", words)
