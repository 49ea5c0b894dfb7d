"""shard_map takes its mesh from jax.set_mesh, and infers in_specs from Explicit-mode types."""
import inspect
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
x = jax.device_put(jnp.arange(16.0), NamedSharding(mesh, P("x")))


@jax.shard_map(in_specs=P("x"), out_specs=P("x"))  # no mesh=: it is read at call time
def double(block):
    return 2 * block


error = None
try:
    double(x)  # no mesh= and no mesh in context
except ValueError as err:
    error = err
print(type(error).__name__ + ":", error)
assert "context mesh cannot be empty" in str(error)

with jax.set_mesh(mesh):
    y = double(x)
    z = jax.shard_map(lambda b: b + 1, out_specs=P("x"))(x)  # in_specs read from x's type
print("y:", jax.typeof(y), " z:", jax.typeof(z))
assert jnp.array_equal(y, 2 * x) and jnp.array_equal(z, x + 1)

# The signature the page quotes: f is optional and positional; everything else is keyword-only.
params = inspect.signature(jax.shard_map).parameters
print("shard_map(" + ", ".join(
    name if p.default is p.empty else f"{name}={p.default!r}" for name, p in params.items()) + ")")
assert {name: p.default for name, p in params.items() if name != "in_specs"} == {
    "f": None, "out_specs": inspect.Parameter.empty, "mesh": None, "axis_names": frozenset(),
    "check_vma": True}
assert repr(params["in_specs"].default) == "jax.sharding.Infer"  # inferred from the arguments
assert params["f"].kind is inspect.Parameter.POSITIONAL_ONLY
assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for name, p in params.items() if name != "f")
