"""in_shardings places the inputs, out_shardings fixes the output's sharding (several devices)."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")
jax.config.update("jax_default_device", devices[0])  # arrays made without a sharding go there too

mesh = jax.make_mesh((len(devices),), ("x",), devices=devices)
print(mesh)
split = NamedSharding(mesh, P("x"))  # rows divided over the devices
whole = NamedSharding(mesh, P())  # a full copy on every device

double = jax.jit(lambda a: a * 2, in_shardings=split, out_shardings=whole)
a = jnp.arange(16.0)  # uncommitted: jit may move it to match in_shardings
out = double(a)
print("input sharding of the compiled program:", double.lower(a).compile().input_shardings[0][0].spec)
print("output sharding:", out.sharding.spec, "| fully replicated:", out.sharding.is_fully_replicated)
assert out.sharding.is_fully_replicated and jnp.array_equal(out, a * 2)

# An array already committed to a different sharding is not moved silently.
committed = jax.device_put(a, whole)
error = None
try:
    double(committed)
except ValueError as err:
    error = err
print("mismatch:", str(error).splitlines()[0][:72], "...")
assert "Sharding passed to jit does not match the sharding on the respective arg" in str(error)
