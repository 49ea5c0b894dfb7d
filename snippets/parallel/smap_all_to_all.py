"""all_to_all: device i sends piece j of its block to device j; rows in, columns out."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import numpy as np
from jax import P
from jax.sharding import NamedSharding

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((len(devices),), ("x",), devices=devices)
n = len(devices)
host = np.arange(n * n, dtype=np.float32).reshape(n, n)  # 8 x 8 on 8 devices
x = jax.device_put(host, NamedSharding(mesh, P("x", None)))  # device i holds row i: (1, n)


def rows_to_columns(block):
    # split the (1, n) row into n pieces along axis 1, send piece j to device j,
    # and stack what arrives along axis 0: device j ends up with column j, shape (n, 1)
    return jax.lax.all_to_all(block, "x", split_axis=1, concat_axis=0, tiled=True)


out = jax.shard_map(rows_to_columns, mesh=mesh, in_specs=P("x", None), out_specs=P(None, "x"))(x)
print("device 0 before:", np.asarray(x.addressable_shards[0].data).ravel())
print("device 0 after: ", np.asarray(out.addressable_shards[0].data).ravel())
assert out.addressable_shards[0].data.shape == (n, 1)
assert np.array_equal(out.addressable_shards[0].data, host[:, :1])  # column 0
assert np.array_equal(out, host)  # same global array, now split by columns
