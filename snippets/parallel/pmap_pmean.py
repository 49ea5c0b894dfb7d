"""With axis_name, a pmapped function can talk to the other devices: lax.pmean averages over them."""
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # the host CPU, even where a GPU is present
os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # 8 emulated devices; must come before `import jax`
import jax
import jax.numpy as jnp

n = jax.device_count()
x = jnp.arange(n * 10.0).reshape(n, 10)
y = jnp.ones((n, 10))


def centred_dot(a, b):
    d = jnp.dot(a, b)  # this device's number
    mean = jax.lax.pmean(d, axis_name="devices")  # all-reduce: the mean of all devices' numbers
    return d, d - mean


local, centred = jax.pmap(centred_dot, axis_name="devices")(x, y)
print("per-device dot:     ", local)
print("minus the pmean:    ", centred)
assert jnp.allclose(centred, local - local.mean())
assert jnp.allclose(centred.sum(), 0.0)

# A collective needs the name: without axis_name, pmean has no axis to reduce over.
try:
    jax.pmap(centred_dot)(x, y)
except NameError as err:
    print("NameError:", err)
    assert "devices" in str(err) and "shard_map" in str(err)  # it points to the new API
else:
    raise AssertionError("pmean over an unknown axis name should fail")
