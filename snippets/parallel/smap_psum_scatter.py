"""psum_scatter adds the blocks like psum, then leaves each device only its own piece of the sum."""
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
host = np.arange(n * n, dtype=np.float32)  # device i holds a block of n: [8i, ..., 8i + 7] on 8 devices
x = jax.device_put(host, NamedSharding(mesh, P("x")))
full_sum = host.reshape(n, n).sum(axis=0)  # what psum would give every device
print("psum of the blocks:", full_sum)

for tiled in (False, True):
    shapes = []

    def body(block):
        piece = jax.lax.psum_scatter(block, "x", tiled=tiled)  # device j keeps element j
        shapes.append((block.shape, piece.shape))
        return piece if tiled else piece[None]  # give the scalar an axis to concatenate on

    out = jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(x)
    print(f"tiled={tiled!s:5}: block {shapes[0][0]} -> {shapes[0][1]}, pieces joined: {out}")
    assert shapes[0] == ((n,), (1,) if tiled else ())
    assert np.array_equal(out, full_sum)

# tiled=False needs scatter_dimension of the mesh axis size: a block twice as long is refused.
x2 = jax.device_put(np.arange(2.0 * n * n, dtype=np.float32), NamedSharding(mesh, P("x")))
try:
    jax.shard_map(lambda b: jax.lax.psum_scatter(b, "x")[None], mesh=mesh,
                  in_specs=P("x"), out_specs=P("x"))(x2)
except ValueError as err:
    print(f"tiled=False, block ({2 * n},):", err)
    assert "must match shard count" in str(err)
else:
    raise AssertionError(f"tiled=False should need a dimension of size {n}")
