"""jax.shard_map runs your function once per device on that device's block; psum adds them up."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax import P
from jax.sharding import NamedSharding

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((len(devices),), ("x",), devices=devices)
x = jax.device_put(jnp.arange(32.0), NamedSharding(mesh, P("x")))  # 4 numbers per device on 8 devices


def total(block):
    print("each device sees a block of shape", block.shape)  # printed once, while tracing
    partial = block.sum()  # this device's numbers only
    return jax.lax.psum(partial, "x")  # all-reduce: add the partial sums of all the devices


result = jax.shard_map(total, mesh=mesh, in_specs=P("x"), out_specs=P())(x)
print("psum of the partial sums:", result, "| x.sum():", x.sum())
assert result.shape == () and result == x.sum()

# Without the collective, out_specs=P("x") concatenates the per-device results.
partials = jax.shard_map(lambda b: b.sum(keepdims=True), mesh=mesh, in_specs=P("x"),
                         out_specs=P("x"))(x)
print("per-device partial sums:", partials)
assert partials.shape == (len(devices),) and partials.sum() == result
