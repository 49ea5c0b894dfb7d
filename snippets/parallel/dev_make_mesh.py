"""jax.make_mesh arranges the devices in a named grid; its axes are Explicit by default."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
from jax.sharding import AxisType, Mesh

# The accelerators if there are 8 of them, else the 8 emulated CPU devices.
devices = jax.devices()[:8] if jax.device_count() >= 8 else jax.devices("cpu")[:8]
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((2, 4), ("x", "y"), devices=devices)  # 2 rows of 4 devices; you pick the names
print(mesh)
print("shape:", dict(mesh.shape), "| axis_names:", mesh.axis_names, "| size:", mesh.size)
print("axis_types:", mesh.axis_types)
print("device ids:", [[d.id for d in row] for row in mesh.devices])

assert isinstance(mesh, Mesh)
assert dict(mesh.shape) == {"x": 2, "y": 4} and mesh.axis_names == ("x", "y")
assert mesh.devices.shape == (2, 4) and mesh.size == 8
assert mesh.axis_types == (AxisType.Explicit, AxisType.Explicit)  # the default of make_mesh
assert sorted(d.id for d in mesh.devices.flat) == sorted(d.id for d in devices)  # each device once

# Ask for a smaller mesh and make_mesh uses the first of the devices; a larger one is an error.
small = jax.make_mesh((4,), ("data",), axis_types=(AxisType.Auto,), devices=devices)
print("4-device mesh:", small, [d.id for d in small.devices])
assert small.size == 4 and small.axis_types == (AxisType.Auto,)
assert set(small.devices) == set(devices[:4])
try:
    jax.make_mesh((4, 4), ("x", "y"), devices=devices)
except ValueError as err:
    print("ValueError:", err)
    assert "must be >= the product" in str(err)
else:
    raise AssertionError("a 16-device mesh on 8 devices should fail")
