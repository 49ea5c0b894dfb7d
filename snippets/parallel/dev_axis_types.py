"""Explicit axes put the sharding in the array's type; Auto axes leave it to the compiler."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

traced, outcome = {}, {}
for kind in (AxisType.Explicit, AxisType.Auto):
    mesh = jax.make_mesh((2, len(devices) // 2), ("x", "y"), axis_types=(kind, kind), devices=devices)
    a = jax.device_put(jnp.ones((8, 16)), NamedSharding(mesh, P("x", "y")))
    b = jax.device_put(jnp.ones((16, 4)), NamedSharding(mesh, P("y", None)))

    @jax.jit
    def matmul(a, b):
        traced[kind] = str(jax.typeof(a))  # the type JAX sees while tracing
        return a @ b  # both operands are split along the summed dimension

    try:
        outcome[kind] = matmul(a, b).sharding.spec  # the compiler chose this
    except Exception as err:  # JAX's ShardingTypeError
        outcome[kind] = err
    print(f"{kind.name}: traced type {traced[kind]}")
    print(f"  a @ b -> {outcome[kind]!r}")

# Explicit: the mesh axes are part of the type, and an ambiguous result is an error
# that asks you to choose; Auto: the type has no sharding and the compiler picks one.
assert traced[AxisType.Explicit] == "float32[8@x,16@y]"
assert traced[AxisType.Auto] == "float32[8,16]"
assert type(outcome[AxisType.Explicit]).__name__ == "ShardingTypeError"
assert "out_sharding" in str(outcome[AxisType.Explicit])
assert isinstance(outcome[AxisType.Auto], P)
