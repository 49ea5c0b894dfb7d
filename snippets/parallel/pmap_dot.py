"""jax.pmap runs a function once per device, each on one row of the input; it still runs without a warning."""
import os
import warnings

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

n = len(devices)
x = jnp.arange(n * 10.0).reshape(n, 10)  # the leading axis must equal the number of devices
y = jnp.ones((n, 10))


def dot(a, b):
    print("each device sees a row of shape", a.shape)  # printed once, while tracing
    return jnp.dot(a, b)


with warnings.catch_warnings(record=True) as caught:  # record any warning pmap emits
    warnings.simplefilter("always")
    out = jax.pmap(dot, devices=devices)(x, y)  # device i computes dot(x[i], y[i])
print("out:", out)
print("warnings from jax.pmap:", [str(w.message) for w in caught])
assert out.shape == (n,)
assert jnp.allclose(out, (x * y).sum(axis=1))  # the same as a row-wise dot product
assert not caught  # in the pinned JAX, calling pmap emits no DeprecationWarning

# Slice i went to device i: the row order of the result is the device order.
owners = [s.device for s in sorted(out.addressable_shards, key=lambda s: s.index[0].start)]
print("row i computed on:", [d.id for d in owners])
assert owners == list(devices)

# The leading axis may not be longer than the number of devices.
try:
    jax.pmap(jnp.dot, devices=devices)(jnp.ones((2 * n, 10)), jnp.ones((2 * n, 10)))
except ValueError as err:
    print(f"{2 * n} rows on {n} devices -> {type(err).__name__}: {str(err).splitlines()[0]}")
else:
    raise AssertionError(f"{2 * n} rows on {n} devices should fail")
