"""On a 2-D mesh a collective acts over the axes you name: psum over "y" only, or over both."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import numpy as np
from jax import P
from jax.sharding import NamedSharding

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

rows = len(devices) // 2
mesh = jax.make_mesh((rows, 2), ("x", "y"), devices=devices)  # rows of 2 devices: 4 of them on 8 devices
host = np.arange(32.0, dtype=np.float32).reshape(8, 4)
a = jax.device_put(host, NamedSharding(mesh, P("x", "y")))  # block (2, 2) per device on 8 devices
seen = {}


def over_y(block):
    out = jax.lax.psum(block, "y")  # adds the 2 blocks within each row of the mesh
    seen["y"] = (block.shape, out.shape, jax.typeof(out))
    return out


def over_both(block):
    out = jax.lax.psum(block, ("x", "y"))  # adds the blocks of all the devices
    seen["x, y"] = (block.shape, out.shape, jax.typeof(out))
    return out


# Still varying over x after the psum over y, so out_specs keeps x and drops y.
row_sums = jax.shard_map(over_y, mesh=mesh, in_specs=P("x", "y"), out_specs=P("x", None))(a)
total = jax.shard_map(over_both, mesh=mesh, in_specs=P("x", "y"), out_specs=P())(a)
for axes, (block_in, block_out, out_type) in seen.items():
    print(f"psum over {axes:4}: block {block_in} -> {block_out}, type {out_type}")
print("global shapes:", row_sums.shape, total.shape)
assert seen["y"][2].manual_axis_type.varying == {"x"}
assert not seen["x, y"][2].manual_axis_type.varying
assert np.array_equal(row_sums, host[:, :2] + host[:, 2:])
assert np.array_equal(total, host.reshape(rows, 8 // rows, 2, 2).sum(axis=(0, 2)))
