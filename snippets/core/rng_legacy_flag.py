"""While migrating, make every legacy uint32 key passed to jax.random an error."""
import jax


def init_weights(key):
    return jax.random.normal(key, (2,))


# Old code still accepts both kinds of key, silently.
print("legacy key, default setting:", init_weights(jax.random.PRNGKey(0)))

caught = None
with jax.legacy_prng_key("error"):  # same as the config option jax_legacy_prng_key
    print("typed key, 'error' setting: ", init_weights(jax.random.key(0)))
    try:
        init_weights(jax.random.PRNGKey(0))
    except ValueError as err:
        caught = err
print("legacy key, 'error' setting: ", type(caught).__name__, "-", str(caught).split(". ")[0])
assert isinstance(caught, ValueError) and "Legacy uint32 key array" in str(caught)
# The context manager restored the default afterwards.
assert jax.config.jax_legacy_prng_key == "allow"
