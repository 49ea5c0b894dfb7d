"""all_to_all: device i sends piece j of its block to device j; rows in, columns out."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import numpy as np
from jax import P
from jax.sharding import NamedSharding

# The accelerators if there are 8 of them, else the 8 emulated CPU devices.
devices = jax.devices()[:8] if jax.device_count() >= 8 else jax.devices("cpu")[:8]
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((8,), ("x",), devices=devices)
host = np.arange(64.0, dtype=np.float32).reshape(8, 8)
x = jax.device_put(host, NamedSharding(mesh, P("x", None)))  # device i holds row i: (1, 8)


def rows_to_columns(block):
    # split the (1, 8) row into 8 pieces along axis 1, send piece j to device j,
    # and stack what arrives along axis 0: device j ends up with column j, shape (8, 1)
    return jax.lax.all_to_all(block, "x", split_axis=1, concat_axis=0, tiled=True)


out = jax.shard_map(rows_to_columns, mesh=mesh, in_specs=P("x", None), out_specs=P(None, "x"))(x)
print("device 0 before:", np.asarray(x.addressable_shards[0].data).ravel())
print("device 0 after: ", np.asarray(out.addressable_shards[0].data).ravel())
assert out.addressable_shards[0].data.shape == (8, 1)
assert np.array_equal(out.addressable_shards[0].data, host[:, :1])  # column 0
assert np.array_equal(out, host)  # same global array, now split by columns
