"""jax.make_mesh arranges the devices in a named grid; its axes are Explicit by default."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
from jax.sharding import AxisType, Mesh

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((2, len(devices) // 2), ("x", "y"), devices=devices)  # 2 x 4 on 8 devices; you pick the names
print(mesh)
print("shape:", dict(mesh.shape), "| axis_names:", mesh.axis_names, "| size:", mesh.size)
print("axis_types:", mesh.axis_types)
print("device ids:", [[d.id for d in row] for row in mesh.devices])

assert isinstance(mesh, Mesh)
assert dict(mesh.shape) == {"x": 2, "y": len(devices) // 2} and mesh.axis_names == ("x", "y")
assert mesh.devices.shape == (2, len(devices) // 2) and mesh.size == len(devices)
assert mesh.axis_types == (AxisType.Explicit, AxisType.Explicit)  # the default of make_mesh
assert sorted(d.id for d in mesh.devices.flat) == sorted(d.id for d in devices)  # each device once

# Ask for a smaller mesh and make_mesh uses the first of the devices; a larger one is an error.
half = len(devices) // 2
small = jax.make_mesh((half,), ("data",), axis_types=(AxisType.Auto,), devices=devices)
print(f"{half}-device mesh:", small, [d.id for d in small.devices])
assert small.size == half and small.axis_types == (AxisType.Auto,)
assert set(small.devices) == set(devices[:half])
try:
    jax.make_mesh((4, 4), ("x", "y"), devices=devices)
except ValueError as err:
    print("ValueError:", err)
    assert "must be >= the product" in str(err)
else:
    raise AssertionError(f"a 16-device mesh on {len(devices)} devices should fail")
