"""A Mesh built by hand from a NumPy array of devices; its axes default to Auto."""
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # the host CPU, even where a GPU is present
os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # 8 emulated devices; must come before `import jax`
import jax
import numpy as np
from jax.sharding import AxisType, Mesh

grid = np.array(jax.devices()).reshape(2, 4)  # you choose which device sits where
mesh = Mesh(grid, ("x", "y"))
print(mesh)
print("shape:", dict(mesh.shape), "| axis_names:", mesh.axis_names)
print("devices:")
print(mesh.devices)

assert dict(mesh.shape) == {"x": 2, "y": 4} and mesh.axis_names == ("x", "y")
assert mesh.devices.shape == (2, 4) and mesh.devices[1, 0] == jax.devices()[4]
assert mesh.axis_types == (AxisType.Auto, AxisType.Auto)  # not Explicit, unlike make_mesh

# Pass axis_types to get the same mesh that jax.make_mesh builds on these CPU devices.
explicit = Mesh(grid, ("x", "y"), axis_types=(AxisType.Explicit,) * 2)
made = jax.make_mesh((2, 4), ("x", "y"))
print("same as make_mesh:", explicit == made)
assert explicit == made

# The grid's number of dimensions must match the number of axis names.
try:
    Mesh(np.array(jax.devices()), ("x", "y"))
except ValueError as err:
    print("ValueError:", err)
    assert "ndim" in str(err)
else:
    raise AssertionError("a 1-D grid with two names should fail")
