"""Migration: PmapSharding and device_put_replicated/_sharded are gone; NamedSharding replaces them."""
import importlib.util
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

print("jax.sharding.PmapSharding exists:", hasattr(jax.sharding, "PmapSharding"))
assert not hasattr(jax.sharding, "PmapSharding")
for name in ("device_put_replicated", "device_put_sharded"):
    try:
        getattr(jax, name)
    except AttributeError as err:
        print(f"jax.{name}: AttributeError: {str(err).split(' See ')[0]}")
        assert "use jax.device_put" in str(err)
    else:
        raise AssertionError(f"jax.{name} should be gone")

mesh = jax.make_mesh((len(devices),), ("d",), devices=devices)  # a 1-D mesh over all the devices
in_mesh_order = list(mesh.devices.flat)
x = jnp.arange(4.0)

# Instead of device_put_replicated(x, devices): a full copy of x on every device.
replicated = jax.device_put(x, NamedSharding(mesh, P()))
print("replicated:", replicated.shape, "|", len(replicated.addressable_shards), "shards of shape",
      {s.data.shape for s in replicated.addressable_shards})
assert all(jnp.array_equal(s.data, x) for s in replicated.addressable_shards)

# Instead of device_put_sharded(rows, devices): one row per device, stacked along axis 0.
rows = [jnp.full((4,), float(i)) for i in range(len(devices))]
pieces = [jax.device_put(r[None], d) for r, d in zip(rows, in_mesh_order)]  # shape (1, 4) each
stacked = jax.make_array_from_single_device_arrays((len(rows), 4), NamedSharding(mesh, P("d")), pieces)
print("stacked:", stacked.shape, stacked.sharding.spec, "| column 0:", stacked[:, 0])
assert jnp.array_equal(stacked, jnp.stack(rows))
assert all(s.data.shape == (1, 4) for s in stacked.addressable_shards)

# jax.pmap (the old API, checked here only) now returns NamedSharding arrays too.
doubled = jax.pmap(lambda v: 2 * v, devices=devices)(jnp.arange(float(len(devices))))
print("pmap result sharding:", type(doubled.sharding).__name__)
assert isinstance(doubled.sharding, NamedSharding)

# One array type for all of them: no DeviceArray or ShardedDeviceArray any more.
assert all(isinstance(a, jax.Array) for a in (x, replicated, stacked, doubled))
assert not hasattr(jnp, "DeviceArray") and hasattr(jnp, "ndarray")
assert not hasattr(jax.interpreters.pxla, "ShardedDeviceArray")
assert importlib.util.find_spec("jax.experimental.global_device_array") is None  # GlobalDeviceArray
print("all jax.Array:", [type(a).__name__ for a in (x, replicated, stacked, doubled)])
