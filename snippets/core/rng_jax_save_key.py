"""JAX: save a key as key_data plus its implementation name, and wrap it back after loading."""
import io

import jax
import numpy as np

key = jax.random.split(jax.random.key(0))[1]  # the key the run would use next
data = jax.random.key_data(key)  # plain uint32 words: safe to store anywhere
impl = str(jax.random.key_impl(key))  # key_data does not record the generator
print("key_data:", data.shape, data.dtype, "| impl:", impl)

buffer = io.BytesIO()  # stands in for a checkpoint file
np.savez(buffer, rng=np.asarray(data), rng_impl=impl)

buffer.seek(0)
saved = np.load(buffer)
restored = jax.random.wrap_key_data(saved["rng"], dtype=str(saved["rng_impl"]))
print("restored:", restored.shape, restored.dtype)
assert restored.dtype == key.dtype and bool(restored == key)
assert np.array_equal(jax.random.normal(restored, (3,)), jax.random.normal(key, (3,)))

# Without the name, the default generator is assumed. philox4x32 words happen to fit it:
# they load without an error, as a different key.
philox = jax.random.key(0, dtype="philox4x32")
misread = jax.random.wrap_key_data(jax.random.key_data(philox))
print("philox4x32 words read as:", misread.dtype)
assert misread.dtype != philox.dtype
assert not np.array_equal(jax.random.normal(misread), jax.random.normal(philox))
# rbg words do not fit, and wrap_key_data rejects them.
rbg_data = jax.random.key_data(jax.random.key(0, dtype="rbg"))
caught = None
try:
    jax.random.wrap_key_data(rbg_data)
except TypeError as err:
    caught = err
print("rbg words read as the default generator:", str(caught).split(";")[0])
assert isinstance(caught, TypeError) and "invalid PRNG key data" in str(caught)
