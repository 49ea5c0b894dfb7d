"""A ShapeDtypeStruct that does not match what the callback returns fails only when the program runs."""
import jax
import jax.numpy as jnp
import numpy as np


def drop_last(v):
    return np.asarray(v)[:-1]  # returns 3 values, not 4


def declared(shape, dtype):
    return jax.jit(lambda v: jax.pure_callback(drop_last, jax.ShapeDtypeStruct(shape, dtype), v))


x = jnp.arange(4.0, dtype=jnp.float32)
wrong = declared((4,), jnp.float32)  # a typical slip: copying the input's shape
wrong.lower(x).compile()  # tracing and compiling trust the declaration
try:
    wrong(x).block_until_ready()  # the error surfaces when the result is awaited (at once on the CPU, later on a TPU)
except jax.errors.JaxRuntimeError as err:
    last_line = str(err).strip().splitlines()[-1]  # the callback's own error ends the message
    print("run time:", last_line)
    assert "Incorrect output shape for return value #0: Expected: (4,), Actual: (3,)" in last_line
else:
    raise AssertionError("expected JaxRuntimeError")

print("right declaration:", declared((3,), jnp.float32)(x))

# With 64-bit types off (the default), a float64 declaration is refused at trace time...
try:
    declared((3,), jnp.float64)(x)
except ValueError as err:
    print("trace time:", err)
    assert "cannot specify 64-bit types" in str(err)
else:
    raise AssertionError("expected ValueError")
# ...and a float64 result is converted to the declared float32 without a word.
as_float64 = lambda a: np.asarray(a, dtype=np.float64)
y = jax.jit(lambda v: jax.pure_callback(as_float64, jax.ShapeDtypeStruct((4,), jnp.float32), v))(x)
print("float64 returned, declared float32, got:", y.dtype)
assert y.dtype == jnp.float32
