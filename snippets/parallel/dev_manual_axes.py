"""Manual axes exist only inside jax.shard_map, where each device sees its own block."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((2, len(devices) // 2), ("x", "y"), devices=devices)
x = jax.device_put(jnp.arange(128.0).reshape(8, 16), NamedSharding(mesh, P("x", "y")))
inside = {}


def per_device(block):
    inside["axis_types"] = jax.sharding.get_abstract_mesh().axis_types
    inside["block_shape"] = block.shape  # one device's piece, not the whole array
    return block


jax.shard_map(per_device, mesh=mesh, in_specs=P("x", "y"), out_specs=P("x", "y"))(x)
print("outside:", mesh.axis_types, x.shape)
print("inside shard_map:", inside["axis_types"], inside["block_shape"])
assert inside["axis_types"] == (AxisType.Manual, AxisType.Manual)
assert inside["block_shape"] == (8 // 2, 16 // mesh.shape["y"])  # (4, 4) on 8 devices

# A Manual mesh cannot be set as the default mesh: shard_map is the way in.
manual = jax.make_mesh((2, len(devices) // 2), ("x", "y"), axis_types=(AxisType.Manual,) * 2, devices=devices)
try:
    jax.set_mesh(manual)
except ValueError as err:
    print("ValueError:", err)
    assert "shard_map" in str(err)
else:
    raise AssertionError("set_mesh should refuse a Manual mesh")
