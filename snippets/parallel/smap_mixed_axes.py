"""axis_names makes shard_map manual over some mesh axes; the others stay Explicit in the type."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax import P
from jax.sharding import NamedSharding

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((len(devices) // 2, 2), ("x", "y"), devices=devices)  # both Explicit outside shard_map
a = jax.device_put(jnp.ones((8, 4)), NamedSharding(mesh, P("x", "y")))
seen = {}


def body(block):
    seen["block"] = jax.typeof(block)  # x: Manual (varying, {V:x}); y: Explicit (4@y)
    return jax.reshard(block, P(None, None)) * 2  # allowed: y is an Explicit axis here


def try_body(fn):
    try:
        jax.shard_map(fn, mesh=mesh, in_specs=P("x"), out_specs=P("x"), axis_names={"x"})(a)
    except (ValueError, NameError) as err:
        return err


with jax.set_mesh(mesh):
    out = jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"), axis_names={"x"})(a)
    reshard_manual = try_body(lambda b: jax.reshard(b, P("x", None)))  # x is Manual inside
    psum_explicit = try_body(lambda b: jax.lax.psum(b, "y"))  # y is not Manual inside
print("inside shard_map:", seen["block"], "| result:", jax.typeof(out))
print("reshard over x:", type(reshard_manual).__name__, "-", str(reshard_manual).split(". ")[0])
print("psum over y:   ", type(psum_explicit).__name__, "-", str(psum_explicit).split(". ")[0])
assert str(seen["block"]) == f"float32[{8 // mesh.shape['x']},4@y]{{V:x}}"  # [2,4@y] on 8 devices
assert isinstance(reshard_manual, ValueError) and isinstance(psum_explicit, NameError)
assert "cannot contain axis names that are of type Auto or Manual" in str(reshard_manual)
assert "unbound axis name: y" in str(psum_explicit)
