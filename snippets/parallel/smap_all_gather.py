"""all_gather with tiled=False stacks the blocks in a new axis; tiled=True concatenates them."""
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
host = np.arange(16.0, dtype=np.float32)
x = jax.device_put(host, NamedSharding(mesh, P("x")))  # block (2,) per device on 8 devices

for tiled in (False, True):
    shapes = []

    def body(block):
        # to="invarying" types the result as equal on all devices, so out_specs=P() is accepted
        out = jax.lax.all_gather(block, "x", tiled=tiled, to="invarying")
        shapes.append((block.shape, out.shape))
        return out

    out = jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P())(x)
    print(f"tiled={tiled!s:5}: block {shapes[0][0]} -> {shapes[0][1]}")
    print(np.asarray(out))
    assert out.shape == ((16,) if tiled else (len(devices), 16 // len(devices)))  # (8, 2) on 8 devices
    assert np.array_equal(out, host if tiled else host.reshape(len(devices), -1))

# Without to="invarying" the result is typed as varying, and check_vma refuses out_specs=P().
error = None
try:
    jax.shard_map(lambda b: jax.lax.all_gather(b, "x"), mesh=mesh,
                  in_specs=P("x"), out_specs=P())(x)
except ValueError as err:
    error = err
print(f"default to='varying' with out_specs=P(): {type(error).__name__}: {str(error).splitlines()[0]}")
assert "could not infer replication" in str(error)
