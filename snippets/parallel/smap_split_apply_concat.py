"""Without collectives, shard_map is split, apply to each block, concatenate."""
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # the host CPU, even where a GPU is present
os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # 8 emulated devices; must come before `import jax`
import jax
import numpy as np
from jax import P
from jax.sharding import NamedSharding

mesh = jax.make_mesh((8,), ("x",))
host = np.arange(32 * 4, dtype=np.float32).reshape(32, 4)
x = jax.device_put(host, NamedSharding(mesh, P("x", None)))


def gram(block):  # (4, 4) rows in, (4, 4) out: the block keeps its rank
    return block.T @ block


out = jax.shard_map(gram, mesh=mesh, in_specs=P("x", None), out_specs=P("x", None))(x)
reference = np.concatenate([gram(b) for b in np.split(host, 8)])  # the same, by hand
print("input", x.shape, "-> 8 blocks of", (32 // 8, 4), "-> output", out.shape)
assert out.shape == (32, 4)
assert np.allclose(out, reference)
