"""psum, pmean and pmax: every device ends up with the same reduced block."""
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
host = np.arange(2.0 * len(devices), dtype=np.float32)  # device i holds [2i, 2i + 1]
x = jax.device_put(host, NamedSharding(mesh, P("x")))
blocks = host.reshape(len(devices), 2)  # row i = the block on device i
expected = {"psum": blocks.sum(0), "pmean": blocks.mean(0), "pmax": blocks.max(0)}

print(f"{'collective':10} {'block in':9} {'block out':9} value")
for name, collective in [("psum", jax.lax.psum), ("pmean", jax.lax.pmean), ("pmax", jax.lax.pmax)]:
    shapes = []

    def body(block):
        out = collective(block, "x")
        shapes.append((block.shape, out.shape))  # recorded while tracing
        return out

    out = jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P())(x)
    print(f"{name:10} {str(shapes[0][0]):9} {str(shapes[0][1]):9} {np.asarray(out)}")
    assert shapes[0] == ((2,), (2,))  # a reduction keeps the block shape
    assert np.allclose(out, expected[name])
