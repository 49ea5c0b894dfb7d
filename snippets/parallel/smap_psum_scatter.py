"""psum_scatter adds the blocks like psum, then leaves each device only its own piece of the sum."""
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
host = np.arange(64.0, dtype=np.float32)  # device i holds [8i, ..., 8i + 7]
x = jax.device_put(host, NamedSharding(mesh, P("x")))
full_sum = host.reshape(8, 8).sum(axis=0)  # what psum would give every device
print("psum of the blocks:", full_sum)

for tiled in (False, True):
    shapes = []

    def body(block):
        piece = jax.lax.psum_scatter(block, "x", tiled=tiled)  # device j keeps element j
        shapes.append((block.shape, piece.shape))
        return piece if tiled else piece[None]  # give the scalar an axis to concatenate on

    out = jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(x)
    print(f"tiled={tiled!s:5}: block {shapes[0][0]} -> {shapes[0][1]}, pieces joined: {out}")
    assert shapes[0] == ((8,), (1,) if tiled else ())
    assert np.array_equal(out, full_sum)

# tiled=False needs scatter_dimension of the mesh axis size: a block of 16 is refused.
x16 = jax.device_put(np.arange(128.0, dtype=np.float32), NamedSharding(mesh, P("x")))
try:
    jax.shard_map(lambda b: jax.lax.psum_scatter(b, "x")[None], mesh=mesh,
                  in_specs=P("x"), out_specs=P("x"))(x16)
except ValueError as err:
    print("tiled=False, block (16,):", err)
    assert "must match shard count" in str(err)
else:
    raise AssertionError("tiled=False should need a dimension of size 8")
