"""jax.sharding.reshard changes an array's sharding: same values, new type, real communication."""
import os
import re

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax import P
from jax.sharding import NamedSharding

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((len(devices),), ("x",), devices=devices)
rows = NamedSharding(mesh, P("x", None))
cols = NamedSharding(mesh, P(None, "x"))
a = jax.device_put(jnp.arange(64.0).reshape(8, 8), rows)

b = jax.sharding.reshard(a, cols)  # also available as jax.reshard
print(jax.typeof(a), "->", jax.typeof(b))
assert jax.reshard is jax.sharding.reshard
assert b.sharding == cols

# Arrays with clashing shardings do not mix: a == b would need an 8@x,8@x result.
error = None
try:
    a == b
except Exception as err:  # JAX's ShardingTypeError
    error = err
print(type(error).__name__ + ":", error)
assert "illegally sharded result" in str(error)
assert jnp.array_equal(a, jax.sharding.reshard(b, rows))  # same values once the shardings agree

# Under jit it is part of the program: the type changes at trace time, data moves at run time.
hlo = jax.jit(lambda a: jax.sharding.reshard(a, cols)).lower(a).compile().as_text()
ops = set(re.findall(r" (all-to-all|all-gather|all-reduce|collective-permute)(?:-start)?\(", hlo))  # or async
print("rows -> columns compiles to:", ops)
assert ops == {"all-to-all"}  # each device sends one piece of its row to every other device

with jax.set_mesh(mesh):  # with a mesh set, a bare PartitionSpec is enough
    c = jax.reshard(a, P())  # P(): replicate on every device
print("rows -> P():", jax.typeof(c), "fully replicated:", c.sharding.is_fully_replicated)
assert c.sharding.is_fully_replicated
