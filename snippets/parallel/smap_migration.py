"""Migration: jax.experimental.shard_map still imports but is deprecated; check_rep is check_vma."""
import os
import warnings

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


def total(block):
    return jax.lax.psum(block.sum(), "x")


with warnings.catch_warnings(record=True) as caught:  # record, do not raise, in this block only
    warnings.simplefilter("always")
    from jax.experimental.shard_map import shard_map  # the old spelling

    old = shard_map(total, mesh, in_specs=P("x"), out_specs=P(), check_rep=True)(x)
for w in caught:
    print(f"{w.category.__name__}: {w.message}")
assert any(issubclass(w.category, DeprecationWarning) and "jax.shard_map" in str(w.message)
           for w in caught)

new = jax.shard_map(total, mesh=mesh, in_specs=P("x"), out_specs=P(), check_vma=True)(x)
print("old:", old, " new:", new)
assert old == new == x.sum()

error = None
try:  # the new function has no check_rep argument
    jax.shard_map(total, mesh=mesh, in_specs=P("x"), out_specs=P(), check_rep=True)
except TypeError as err:
    error = err
print(type(error).__name__ + ":", error)
assert "check_rep" in str(error)
