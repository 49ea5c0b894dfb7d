"""Without collectives, shard_map is split, apply to each block, concatenate."""
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
host = np.arange(32 * 4, dtype=np.float32).reshape(32, 4)
x = jax.device_put(host, NamedSharding(mesh, P("x", None)))


def gram(block):  # a block of rows in ((4, 4) on 8 devices), (4, 4) out: the block keeps its rank
    return block.T @ block


out = jax.shard_map(gram, mesh=mesh, in_specs=P("x", None), out_specs=P("x", None))(x)
n = len(devices)
reference = np.concatenate([gram(b) for b in np.split(host, n)])  # the same, by hand
print("input", x.shape, f"-> {n} blocks of", (32 // n, 4), "-> output", out.shape)
assert out.shape == (4 * n, 4)
assert np.allclose(out, reference)
