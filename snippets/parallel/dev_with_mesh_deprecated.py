"""Migration: `with mesh:` warns and jax.sharding.use_mesh is gone; use jax.set_mesh."""
import os
import warnings

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((2, len(devices) // 2), ("x", "y"), devices=devices)

# Old: the Mesh object as a context manager. Record the warning instead of failing on it.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with mesh:
        pass
print(f"{caught[0].category.__name__}: {caught[0].message}")
assert caught[0].category is DeprecationWarning
assert "jax.set_mesh" in str(caught[0].message)

# Older: jax.sharding.use_mesh no longer exists.
print("jax.sharding has use_mesh:", hasattr(jax.sharding, "use_mesh"))
assert not hasattr(jax.sharding, "use_mesh")

# New: one API, no warning.
with warnings.catch_warnings():
    warnings.simplefilter("error")  # any warning here would raise
    with jax.set_mesh(mesh):
        placed = jax.device_put(jnp.zeros((8, 16)), P("x", "y"))
print("with jax.set_mesh(mesh):", placed.sharding.spec)
assert placed.sharding.mesh == mesh
