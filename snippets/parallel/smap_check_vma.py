"""check_vma: JAX tracks which values vary across devices and checks out_specs against it."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
import numpy as np
from jax import P
from jax.sharding import NamedSharding

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((len(devices),), ("x",), devices=devices)
x = jax.device_put(jnp.arange(16.0), NamedSharding(mesh, P("x")))
seen = {}


def doubled(block):
    seen["block"] = jax.typeof(block)  # recorded while tracing
    return 2 * block  # still different on every device


error = None
try:  # out_specs=P() promises one value, the same on all devices: false here
    jax.shard_map(doubled, mesh=mesh, in_specs=P("x"), out_specs=P())(x)
except ValueError as err:
    error = err
print("block type:", seen["block"], "| varies over:", set(seen["block"].manual_axis_type.varying))
message = next(line for line in str(error).splitlines() if line.startswith("out_specs is"))
print(type(error).__name__ + ":", message)
assert seen["block"].manual_axis_type.varying == {"x"}
assert "out_specs is P() which implies that the corresponding output value is replicated" in message


def summed(block):
    total = jax.lax.psum(2 * block, "x")  # now every device holds the same value
    seen["total"] = jax.typeof(total)
    return total


fixed = jax.shard_map(summed, mesh=mesh, in_specs=P("x"), out_specs=P())(x)
print("after psum:", seen["total"], "->", fixed)
assert not seen["total"].manual_axis_type.varying

# check_vma=False removes the check, not the bug: one device's block comes back silently.
unchecked = jax.shard_map(doubled, mesh=mesh, in_specs=P("x"), out_specs=P(), check_vma=False)(x)
print("check_vma=False:", unchecked)
assert unchecked.shape == (16 // len(devices),) and not jnp.array_equal(unchecked, fixed)
blocks = [2 * np.asarray(s.data) for s in x.addressable_shards]  # each device's 2 * block
assert any(np.array_equal(unchecked, b) for b in blocks)  # one of them, silently
