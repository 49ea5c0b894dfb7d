"""jax.debug_key_reuse turns a reused key into an error instead of silently equal numbers."""
import jax

caught = None
with jax.debug_key_reuse(True):  # a checker; scoped to this block only
    key = jax.random.key(0)
    init_key, dropout_key = jax.random.split(key)  # split consumes `key`
    jax.random.normal(init_key, (2,))
    jax.random.normal(dropout_key, (2,))  # fine: each new key used once
    try:
        jax.random.normal(init_key, (2,))  # second use of the same key
    except jax.errors.KeyReuseError as err:
        caught = err
print(f"second use of init_key raised: {type(caught).__name__}: {str(caught).splitlines()[0]}")
assert isinstance(caught, jax.errors.KeyReuseError)
