"""Auto axes let the compiler choose shardings; with_sharding_constraint pins an intermediate."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
import numpy as np
from jax import P
from jax.sharding import AxisType, NamedSharding

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

auto = jax.make_mesh((len(devices),), ("x",), axis_types=(AxisType.Auto,), devices=devices)
a_host = np.arange(16 * 32, dtype=np.float32).reshape(16, 32)
a = jax.device_put(a_host, NamedSharding(auto, P(None, "x")))
w = jax.device_put(np.ones((32, 8), np.float32), NamedSharding(auto, P("x", None)))

out = jax.jit(jnp.matmul)(a, w)  # the matmul refused in Explicit mode compiles here
print("type:", jax.typeof(out), "| sharding the compiler chose:", out.sharding.spec)
assert str(jax.typeof(out)) == "float32[16,8]"  # Auto axes do not appear in types
assert np.allclose(out, a_host @ np.ones((32, 8)))


@jax.jit
def layer(a, w):
    h = jnp.matmul(a, w)
    h = jax.lax.with_sharding_constraint(h, NamedSharding(auto, P("x", None)))  # rows, please
    return jnp.tanh(h)


pinned = layer(a, w)
print("with_sharding_constraint:", pinned.sharding.spec)
assert pinned.sharding.is_equivalent_to(NamedSharding(auto, P("x", None)), 2)

# The same call on an Explicit mesh is an error that points to reshard.
explicit = jax.make_mesh((len(devices),), ("x",), devices=devices)
e = jax.device_put(a_host, NamedSharding(explicit, P("x", None)))
cols = NamedSharding(explicit, P(None, "x"))
error = None
try:
    jax.jit(lambda v: jax.lax.with_sharding_constraint(v, cols))(e)
except ValueError as err:
    error = err
print("Explicit mesh:", str(error).split(". ")[0], "...")
assert "You probably meant to use `reshard` API?" in str(error)
