"""jax.make_mesh arranges the devices in a named grid; its axes are Explicit by default."""
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # the host CPU, even where a GPU is present
os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # 8 emulated devices; must come before `import jax`
import jax
from jax.sharding import AxisType, Mesh

mesh = jax.make_mesh((2, 4), ("x", "y"))  # 2 rows of 4 devices; axis names are yours to pick
print(mesh)
print("shape:", dict(mesh.shape), "| axis_names:", mesh.axis_names, "| size:", mesh.size)
print("axis_types:", mesh.axis_types)
print("device ids:", [[d.id for d in row] for row in mesh.devices])

assert isinstance(mesh, Mesh)
assert dict(mesh.shape) == {"x": 2, "y": 4} and mesh.axis_names == ("x", "y")
assert mesh.devices.shape == (2, 4) and mesh.size == 8
assert mesh.axis_types == (AxisType.Explicit, AxisType.Explicit)  # the default of make_mesh
assert sorted(d.id for d in mesh.devices.flat) == list(range(8))  # each device once

# Ask for a smaller mesh and make_mesh uses the first devices; a larger one is an error.
small = jax.make_mesh((4,), ("data",), axis_types=(AxisType.Auto,))
print("4-device mesh:", small, [d.id for d in small.devices])
assert small.size == 4 and small.axis_types == (AxisType.Auto,)
try:
    jax.make_mesh((4, 4), ("x", "y"))
except ValueError as err:
    print("ValueError:", err)
    assert "must be >= the product" in str(err)
else:
    raise AssertionError("a 16-device mesh on 8 devices should fail")
