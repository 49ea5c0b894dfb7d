"""Without collectives, shard_map is split, apply to each block, concatenate."""
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
host = np.arange(32 * 4, dtype=np.float32).reshape(32, 4)
x = jax.device_put(host, NamedSharding(mesh, P("x", None)))


def gram(block):  # (4, 4) rows in, (4, 4) out: the block keeps its rank
    return block.T @ block


out = jax.shard_map(gram, mesh=mesh, in_specs=P("x", None), out_specs=P("x", None))(x)
reference = np.concatenate([gram(b) for b in np.split(host, 8)])  # the same, by hand
print("input", x.shape, "-> 8 blocks of", (32 // 8, 4), "-> output", out.shape)
assert out.shape == (32, 4)
assert np.allclose(out, reference)
