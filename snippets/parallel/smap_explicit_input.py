"""On an Explicit mesh, shard_map checks in_specs against the argument's sharding type."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax import P
from jax.sharding import AxisType, NamedSharding

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((len(devices),), ("x",), devices=devices)  # Explicit axes: shardings are part of the types
x = jnp.arange(16.0)  # a plain array on one device: its type says "not split"
double = jax.shard_map(lambda b: 2 * b, mesh=mesh, in_specs=P("x"), out_specs=P("x"))

error = None
try:
    double(x)  # in_specs says "split over x", the type says otherwise
except ValueError as err:
    error = err
print(type(error).__name__ + ":", error)
assert "does not match the specs of the input" in str(error)

# Fix 1: give the argument the sharding that in_specs describes.
x_split = jax.reshard(x, NamedSharding(mesh, P("x")))
print("fixed with reshard:", jax.typeof(double(x_split)))
assert jnp.array_equal(double(x_split), 2 * x)

# Fix 2: leave in_specs out; shard_map reads it from the argument's type.
inferred = jax.shard_map(lambda b: 2 * b, mesh=mesh, out_specs=P("x"))(x_split)
assert jnp.array_equal(inferred, 2 * x)

# On a mesh with Auto axes, the same call splits the plain array itself.
auto = jax.make_mesh((len(devices),), ("x",), axis_types=(AxisType.Auto,), devices=devices)
moved = jax.shard_map(lambda b: 2 * b, mesh=auto, in_specs=P("x"), out_specs=P("x"))(x)
print("Auto mesh, plain array:", moved.sharding.spec)
assert jnp.array_equal(moved, 2 * x)
