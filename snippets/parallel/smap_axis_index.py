"""axis_index tells each device its position along a mesh axis, on 1-D and 2-D meshes."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
import numpy as np
from jax import P

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

line = jax.make_mesh((len(devices),), ("x",), devices=devices)
where = jax.shard_map(lambda: jax.lax.axis_index("x")[None], mesh=line,
                      in_specs=(), out_specs=P("x"))()  # no inputs: one int per device
print("1-D mesh, axis_index('x'):", where)
assert np.array_equal(where, np.arange(len(devices)))

rows = len(devices) // 2
grid = jax.make_mesh((rows, 2), ("x", "y"), devices=devices)  # 4 x 2 on 8 devices


def coordinates():
    i, j = jax.lax.axis_index("x"), jax.lax.axis_index("y")
    flat = jax.lax.axis_index(("x", "y"))  # position when both axes are read as one
    return jnp.stack([i, j, flat])[None, None]  # one (1, 1, 3) block per device


coords = np.asarray(jax.shard_map(coordinates, mesh=grid, in_specs=(),
                                  out_specs=P("x", "y"))())  # shape (rows, 2, 3)
print("2-D mesh, (x, y, flat) per device:")
print(coords.tolist())
assert np.array_equal(coords[..., 0], np.repeat(np.arange(rows)[:, None], 2, axis=1))
assert np.array_equal(coords[..., 1], np.tile(np.arange(2), (rows, 1)))
assert np.array_equal(coords[..., 2], np.arange(len(devices)).reshape(rows, 2))
