"""Ask JAX why a jitted function compiles again: log compiles and explain tracing-cache misses."""
import logging

import jax
import jax.numpy as jnp


class Records(logging.Handler):
    """Keep JAX's log messages in a list instead of printing them to stderr."""

    def __init__(self):
        super().__init__()
        self.compiles, self.misses = [], []

    def emit(self, record):
        text = record.getMessage()
        if text.startswith("Compiling "):
            self.compiles.append(text)
        elif text.startswith("TRACING CACHE MISS"):
            # Keep what changed; drop the lines that name files and line numbers.
            self.misses.append("\n".join(l for l in text.splitlines()[1:] if "defined at" not in l))


records = Records()
jax_logger = logging.getLogger("jax")
jax_logger.addHandler(records)
jax_logger.propagate = False  # nothing reaches the root logger or stderr
jax.config.update("jax_explain_cache_misses", True)


def scale(x, n):
    return x * n


f = jax.jit(scale, static_argnames="n")
calls = [
    ("first call", jnp.ones(3, jnp.float32), 2),
    ("new static n", jnp.ones(3, jnp.float32), 3),
    ("new shape", jnp.ones(4, jnp.float32), 3),
    ("new dtype", jnp.ones(4, jnp.int32), 3),
    ("Python scalar", 1.0, 3),
    ("nothing new", jnp.ones(4, jnp.int32), 3),
]
with jax.log_compiles():
    for what, x, n in calls:
        before = len(records.compiles)
        f(x, n=n).block_until_ready()
        compiled = len(records.compiles) - before
        print(f"== {what}: {compiled} compile(s)")
        if compiled:
            print(records.misses[-1])

print("compiled versions in the cache:", f._cache_size())
assert len(records.compiles) == 5 and len(records.misses) == 5  # every call but the last compiled
assert f._cache_size() == 5  # five compiled versions of one function
first, static, shape, dtype, weak = records.misses
assert "never seen function" in first
assert "explanation unavailable" in static and "at n" not in static  # n is not named
assert "at x, now f32[4] and before f32[3]" in shape
assert "at x, now i32[4] and before f32[" in dtype
assert "at x, now f32[]" in weak and "weak_type=True" in weak
