"""Explicit mode refuses a matmul whose output sharding is ambiguous; out_sharding= decides it."""
import inspect
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
assert not hasattr(jax.errors, "ShardingTypeError")  # hence the check by name
try:  # raised while tracing: eval_shape computes nothing and still fails
    jax.eval_shape(jnp.matmul, a, w)
except Exception as err:
    assert type(err).__name__ == "ShardingTypeError"
else:
    raise AssertionError("eval_shape should fail the same way")
for fn in (jnp.matmul, jnp.dot, jnp.einsum, jax.lax.dot_general):
    assert "out_sharding" in inspect.signature(fn).parameters

with jax.set_mesh(mesh):  # so that out_sharding can be a bare P
    full = jnp.matmul(a, w, out_sharding=P())  # every device gets the whole result
    split = jnp.matmul(a, w, out_sharding=P("x", None))  # each device gets its own rows
print("out_sharding=P():        ", jax.typeof(full))
print("out_sharding=P('x', None):", jax.typeof(split))
assert full.sharding.is_fully_replicated
assert split.sharding.spec == P("x", None)
assert np.allclose(full, a_host @ w_host) and np.allclose(split, a_host @ w_host)

# One mesh axis for two result dimensions: f32[8@x,4] @ f32[4,8@x] would be f32[8@x,8@x].
rows = jax.device_put(np.ones((8, 4), np.float32), NamedSharding(mesh, P("x", None)))
cols = jax.device_put(np.ones((4, 8), np.float32), NamedSharding(mesh, P(None, "x")))
try:
    rows @ cols
except Exception as err:
    print(type(err).__name__ + ":", str(err).split(": ", 1)[1])
    assert type(err).__name__ == "ShardingTypeError" and "f32[8@x,8@x]" in str(err)
else:
    raise AssertionError("a result split over x twice should fail")
