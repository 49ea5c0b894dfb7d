"""A Mesh built by hand from a NumPy array of devices; its axes default to Auto."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import numpy as np
from jax.sharding import AxisType, Mesh

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

grid = np.array(devices).reshape(2, -1)  # 2 x 4 on 8 devices; you choose which device sits where
mesh = Mesh(grid, ("x", "y"))
print(mesh)
print("shape:", dict(mesh.shape), "| axis_names:", mesh.axis_names)
print("devices:")
print(mesh.devices)

half = len(devices) // 2
assert dict(mesh.shape) == {"x": 2, "y": half} and mesh.axis_names == ("x", "y")
assert mesh.devices.shape == (2, half) and mesh.devices[1, 0] == devices[half]
assert mesh.axis_types == (AxisType.Auto, AxisType.Auto)  # not Explicit, unlike make_mesh

# Pass axis_types to get the same mesh that jax.make_mesh builds on CPUs and GPUs.
explicit = Mesh(grid, ("x", "y"), axis_types=(AxisType.Explicit,) * 2)
made = jax.make_mesh((2, half), ("x", "y"), devices=devices)
print("same as make_mesh:", explicit == made)
assert explicit == made or devices[0].platform == "tpu"  # TPUs: make_mesh follows the chips

# The grid's number of dimensions must match the number of axis names.
try:
    Mesh(np.array(devices), ("x", "y"))
except ValueError as err:
    print("ValueError:", err)
    assert "ndim" in str(err)
else:
    raise AssertionError("a 1-D grid with two names should fail")
