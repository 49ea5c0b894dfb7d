"""Avoid recompiles: one jitted function, values as arguments, bucketed shapes, fixed dtypes."""
import logging

import jax
import jax.numpy as jnp


class Records(logging.Handler):
    def __init__(self):
        super().__init__()
        self.compiles, self.misses = [], []

    def emit(self, record):
        text = record.getMessage()
        if text.startswith("Compiling "):
            self.compiles.append(text)
        elif text.startswith("TRACING CACHE MISS"):
            self.misses.append(text)


records = Records()
jax_logger = logging.getLogger("jax")
jax_logger.addHandler(records)
jax_logger.propagate = False
jax.config.update("jax_explain_cache_misses", True)
jax.config.update("jax_log_compiles", True)


def compiles(name):
    """How many times a jitted function of this name has been compiled so far."""
    return sum(text.startswith(f"Compiling jit({name})") for text in records.compiles)


x = jnp.arange(4.0)

# 1. A new lambda each step is a new function: JAX traces and compiles it every time.
for step in range(3):
    jax.jit(lambda v: v * 2.0)(x)
print("new lambda each step:", compiles("<lambda>"), "compiles")
assert compiles("<lambda>") == 3
assert "re-defined repeatedly" in records.misses[-1]

# 2. A global read at trace time is baked in: changing it later does not retrace.
factor = 2.0
g = jax.jit(lambda v: v * factor)
before = g(x)
factor = 3.0
after = g(x)
print("changed global, same result:", bool(jnp.array_equal(before, after)))
assert jnp.array_equal(before, after)  # the stale 2.0 is still used

# Pass the value as an argument: one compile, the new value is used.
def times(v, k):
    return v * k


h = jax.jit(times)
outs = [h(x, jnp.float32(k)) for k in (2.0, 3.0, 4.0)]
print("value as argument:", compiles("times"), "compile")
assert compiles("times") == 1 and float(outs[2][1]) == 4.0


# 3. Pad every length to the next power of two: lengths 5 to 8 share one program.
@jax.jit
def masked_mean(padded, n):
    mask = jnp.arange(padded.shape[0]) < n
    return jnp.sum(jnp.where(mask, padded, 0.0)) / n


for length in (5, 6, 7, 8):
    data = jnp.arange(length, dtype=jnp.float32)  # a fixed dtype, never a Python list
    bucket = 1 << (length - 1).bit_length()
    padded = jnp.pad(data, (0, bucket - length))
    assert jnp.allclose(masked_mean(padded, length), data.mean())
print("lengths 5-8, padded to 8:", compiles("masked_mean"), "compile")
assert compiles("masked_mean") == 1
