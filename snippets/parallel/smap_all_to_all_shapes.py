"""The block shapes all_to_all produces for different split_axis, concat_axis and tiled."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
import numpy as np
from jax import P
from jax.sharding import NamedSharding

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((len(devices),), ("x",), devices=devices)
n = len(devices)  # size of mesh axis "x"
x = jax.device_put(jnp.zeros((n * n, 2, 4)), NamedSharding(mesh, P("x")))  # block (n, 2, 4)

print(f"{'tiled':6} {'split_axis':11} {'concat_axis':12} {'block in':10} block out")
for tiled in (False, True):
    for split_axis, concat_axis in [(0, 0), (0, 1), (0, 2)]:
        shapes = []

        def body(block):
            out = jax.lax.all_to_all(block, "x", split_axis, concat_axis, tiled=tiled)
            shapes.append((block.shape, out.shape))
            return out

        jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(x)
        block_in, block_out = shapes[0]
        print(f"{tiled!s:6} {split_axis:<11} {concat_axis:<12} {str(block_in):10} {block_out}")
        if tiled:  # split_axis shrinks n times, concat_axis grows n times
            expected = list(block_in)
            expected[split_axis] //= n
            expected[concat_axis] *= n
        else:  # split_axis (of size n) is removed, a new axis of size n appears at concat_axis
            expected = np.insert(np.delete(block_in, split_axis), concat_axis, n)
        assert block_out == tuple(int(d) for d in expected)
