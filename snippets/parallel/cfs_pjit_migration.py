"""Migration: jax.experimental.pjit.pjit still runs in this JAX but is deprecated; use jax.jit."""
import os
import warnings

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax import P
from jax.sharding import NamedSharding

# The accelerators if there are 8 of them, else the 8 emulated CPU devices.
devices = jax.devices()[:8] if jax.device_count() >= 8 else jax.devices("cpu")[:8]
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((8,), ("x",), devices=devices)
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
