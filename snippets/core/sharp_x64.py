"""Default dtypes are 32-bit; jax.enable_x64 turns on 64-bit types for one block, then restores."""
import warnings

import jax
import jax.experimental
import jax.numpy as jnp
import numpy as np


def dtypes():
    return jnp.array(1.0).dtype, jnp.arange(3).dtype


print("NumPy default:         ", np.array(1.0).dtype, np.arange(3).dtype)
print("JAX default:           ", *dtypes())
assert dtypes() == (jnp.float32, jnp.int32)

# Asking for float64 while 64-bit types are off: a UserWarning, and float32 anyway.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    x = jnp.array(1.0, dtype=jnp.float64)
print("dtype=float64, x64 off:", x.dtype, "|", caught[0].category.__name__)
assert x.dtype == jnp.float32 and caught[0].category is UserWarning
assert "jax_enable_x64" in str(caught[0].message)

with jax.enable_x64(True):  # a context manager: on inside the block only
    print("inside enable_x64:     ", *dtypes())
    assert dtypes() == (jnp.float64, jnp.int64)
    y = jax.jit(lambda v: v / 3)(jnp.array(1.0))  # jit compiles a float64 version
    assert y.dtype == jnp.float64
print("after the block:       ", *dtypes())
assert dtypes() == (jnp.float32, jnp.int32) and not jax.config.jax_enable_x64
print(f"1/3 in float64: {float(y):.17f}")

# y is still a float64 array; using it with 64-bit types off warns and truncates again.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    z = y * 2
print("float64 array used after the block:", z.dtype, "|", caught[0].category.__name__)
assert y.dtype == jnp.float64 and z.dtype == jnp.float32 and caught[0].category is UserWarning
# The old jax.experimental.enable_x64 / disable_x64 are gone; jax.enable_x64 replaces both.
assert not hasattr(jax.experimental, "enable_x64")
