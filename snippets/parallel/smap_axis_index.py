"""axis_index tells each device its position along a mesh axis, on 1-D and 2-D meshes."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
import numpy as np
from jax import P

# The accelerators if there are 8 of them, else the 8 emulated CPU devices.
devices = jax.devices()[:8] if jax.device_count() >= 8 else jax.devices("cpu")[:8]
print(f"{len(devices)} devices: {devices[0].platform}")

line = jax.make_mesh((8,), ("x",), devices=devices)
where = jax.shard_map(lambda: jax.lax.axis_index("x")[None], mesh=line,
                      in_specs=(), out_specs=P("x"))()  # no inputs: one int per device
print("1-D mesh, axis_index('x'):", where)
assert np.array_equal(where, np.arange(8))

grid = jax.make_mesh((4, 2), ("x", "y"), devices=devices)


def coordinates():
    i, j = jax.lax.axis_index("x"), jax.lax.axis_index("y")
    flat = jax.lax.axis_index(("x", "y"))  # position when both axes are read as one
    return jnp.stack([i, j, flat])[None, None]  # one (1, 1, 3) block per device


coords = np.asarray(jax.shard_map(coordinates, mesh=grid, in_specs=(),
                                  out_specs=P("x", "y"))())  # shape (4, 2, 3)
print("2-D mesh, (x, y, flat) per device:")
print(coords.tolist())
assert np.array_equal(coords[..., 0], np.repeat(np.arange(4)[:, None], 2, axis=1))
assert np.array_equal(coords[..., 1], np.tile(np.arange(2), (4, 1)))
assert np.array_equal(coords[..., 2], np.arange(8).reshape(4, 2))
