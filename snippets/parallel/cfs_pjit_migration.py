"""Migration: jax.experimental.pjit.pjit still runs in this JAX but is deprecated; use jax.jit."""
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
rows = NamedSharding(mesh, P("x", None))
a = jnp.arange(32.0).reshape(8, 4)

with warnings.catch_warnings(record=True) as caught:  # record, do not raise, in this block only
    warnings.simplefilter("always")
    from jax.experimental.pjit import pjit  # the old spelling

    old = pjit(lambda v: v * 2, in_shardings=rows, out_shardings=rows)(a)
for w in caught:
    print(f"{w.category.__name__}: {w.message}")
assert any(issubclass(w.category, DeprecationWarning) and "jax.jit" in str(w.message)
           for w in caught)

new = jax.jit(lambda v: v * 2, in_shardings=rows, out_shardings=rows)(a)  # the replacement
print("pjit:", jax.typeof(old), " jax.jit:", jax.typeof(new))
assert new.sharding == old.sharding and jnp.array_equal(new, old)
