"""With axis_name, a pmapped function can talk to the other devices: lax.pmean averages over them."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

n = len(devices)
x = jnp.arange(n * 10.0).reshape(n, 10)
y = jnp.ones((n, 10))


def centred_dot(a, b):
    d = jnp.dot(a, b)  # this device's number
    mean = jax.lax.pmean(d, axis_name="devices")  # all-reduce: the mean of all devices' numbers
    return d, d - mean


local, centred = jax.pmap(centred_dot, axis_name="devices", devices=devices)(x, y)
print("per-device dot:     ", local)
print("minus the pmean:    ", centred)
assert jnp.allclose(centred, local - local.mean())
assert jnp.allclose(centred.sum(), 0.0)

# A collective needs the name: without axis_name, pmean has no axis to reduce over.
try:
    jax.pmap(centred_dot, devices=devices)(x, y)
except NameError as err:
    print("NameError:", err)
    assert "devices" in str(err) and "shard_map" in str(err)  # it points to the new API
else:
    raise AssertionError("pmean over an unknown axis name should fail")
