"""In Explicit mode the sharding is part of the type: jax.typeof shows it, also while tracing."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax import P
from jax.sharding import AxisType, NamedSharding

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((len(devices),), ("x",), devices=devices)
print("mesh:", mesh)
assert mesh.axis_types == (AxisType.Explicit,)  # the default of jax.make_mesh here

x = jax.device_put(jnp.ones((8, 4)), NamedSharding(mesh, P("x", None)))
print("x:", jax.typeof(x))  # 8@x: dimension 0 is split over mesh axis x
assert str(jax.typeof(x)) == "float32[8@x,4]"

types = {}


@jax.jit
def f(x):
    y = jnp.sin(x)
    across = y.sum(axis=0)  # adds rows that live on different devices
    within = y.sum(axis=1)  # adds inside each row: every device has what it needs
    types.update(y=jax.typeof(y), across=jax.typeof(across), within=jax.typeof(within))
    return across, within


across, within = f(x)
for name, t in types.items():
    print(f"{name:7} {t}")
assert types["y"].sharding.spec == P("x", None)
assert types["within"].sharding.spec == P("x")
assert across.sharding.is_fully_replicated  # the sum over x needed an all-reduce
assert "all-reduce" in f.lower(x).compile().as_text()
