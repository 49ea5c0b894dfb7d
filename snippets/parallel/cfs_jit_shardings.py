"""jax.jit with in_shardings and out_shardings: where the inputs go and how the result comes out."""
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
rows = NamedSharding(mesh, P("x", None))
cols = NamedSharding(mesh, P(None, "x"))
a = jnp.arange(64.0).reshape(8, 8)  # on one device, not yet committed to a sharding
assert not a.committed

scale = jax.jit(lambda a: a * 2, in_shardings=rows, out_shardings=cols)
out = scale(a)  # a is split into rows on the way in; the result comes out in columns
print("out:", jax.typeof(out))
assert out.sharding == cols
assert jnp.array_equal(out, a * 2)

# An input already placed with another sharding is not moved behind your back.
a_cols = jax.device_put(a, cols)
error = None
try:
    scale(a_cols)
except ValueError as err:
    error = err
print(type(error).__name__ + ":", str(error).splitlines()[0][:75], "...")
assert "does not match the sharding on the respective arg" in str(error)

# Fix: reshard it yourself, or leave in_shardings out and let the input's sharding flow in.
assert scale(jax.sharding.reshard(a_cols, rows)).sharding == cols
follow = jax.jit(lambda a: a * 2, out_shardings=cols)(a_cols)
assert follow.sharding == cols
