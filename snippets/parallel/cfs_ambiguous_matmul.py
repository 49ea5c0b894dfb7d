"""Explicit mode refuses a matmul whose output sharding is ambiguous; out_sharding= decides it."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
import numpy as np
from jax import P
from jax.sharding import NamedSharding

# The accelerators if there are 8 of them, else the 8 emulated CPU devices.
devices = jax.devices()[:8] if jax.device_count() >= 8 else jax.devices("cpu")[:8]
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((8,), ("x",), devices=devices)
a_host = np.arange(16 * 32, dtype=np.float32).reshape(16, 32)
w_host = np.ones((32, 8), np.float32)
a = jax.device_put(a_host, NamedSharding(mesh, P(None, "x")))  # contracting dim split
w = jax.device_put(w_host, NamedSharding(mesh, P("x", None)))  # contracting dim split

error = None
try:
    a @ w  # replicated result? rows split? JAX will not guess
except Exception as err:  # JAX's ShardingTypeError, which jax.errors does not export
    error = err
print(type(error).__name__ + ":", str(error).split(". ")[0])
assert type(error).__name__ == "ShardingTypeError"
assert "specify the output sharding via the `out_sharding` parameter" in str(error)

with jax.set_mesh(mesh):  # so that out_sharding can be a bare P
    full = jnp.matmul(a, w, out_sharding=P())  # every device gets the whole result
    split = jnp.matmul(a, w, out_sharding=P("x", None))  # each device gets 2 rows
print("out_sharding=P():        ", jax.typeof(full))
print("out_sharding=P('x', None):", jax.typeof(split))
assert full.sharding.is_fully_replicated
assert split.sharding.spec == P("x", None)
assert np.allclose(full, a_host @ w_host) and np.allclose(split, a_host @ w_host)
