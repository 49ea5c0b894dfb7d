"""Reusing one key across different samplers ties them together; what the checker catches."""
import jax
import jax.numpy as jnp

key = jax.random.key(0)
u = jax.random.uniform(key, (1000,))
z = jax.random.normal(key, (1000,))  # a different distribution, the same key
mask = jax.random.bernoulli(key, 0.5, (1000,))
print("same ordering of normal and uniform:", bool(jnp.array_equal(jnp.argsort(z), jnp.argsort(u))))
print("bernoulli == (uniform < 0.5):", bool(jnp.array_equal(mask, u < 0.5)))
# Not independent at all: each draw is a fixed function of the other.
assert jnp.array_equal(jnp.argsort(z), jnp.argsort(u))
assert jnp.array_equal(mask, u < 0.5)


@jax.jit
def init(key):
    w = jax.random.normal(key, (3,))
    b = jax.random.uniform(key, (3,))  # the bug from above, inside jit
    return w, b


messages = []
with jax.debug_key_reuse(True):
    for fn in (lambda: init(jax.random.key(1)),  # reuse inside a jitted function
               lambda: [jax.random.split(key), jax.random.normal(key)]):  # use after split
        try:
            fn()
        except jax.errors.KeyReuseError as err:
            messages.append(str(err).splitlines()[0])
    legacy = jax.random.PRNGKey(0)
    jax.random.normal(legacy)
    jax.random.normal(legacy)  # legacy uint32 keys are not tracked: no error
print(*messages, sep="\n")
print("legacy key used twice: no error")
assert len(messages) == 2 and "already consumed" in messages[0]
