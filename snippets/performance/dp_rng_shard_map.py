"""Dropout masks in a data-parallel step: jit draws the global mask, shard_map one per device."""
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
jax.config.update("jax_default_device", devices[0])  # arrays made without a sharding go there too

mesh = jax.make_mesh((len(devices),), ("data",), devices=devices)
key = jax.random.key(0)
x = jax.device_put(jnp.ones((64, 16)), NamedSharding(mesh, P("data")))  # 8 examples per device on 8 devices


def dropout(key, x):
    return jnp.where(jax.random.bernoulli(key, 0.5, x.shape), 2 * x, 0.0)


global_mask = jax.jit(dropout)(key, x)  # jit: one mask for the whole batch, split like x


def same_key(key, block):  # every device draws with the same key
    return dropout(key, block)


def own_key(key, block):  # every device folds its position into the key first
    return dropout(jax.random.fold_in(key, jax.lax.axis_index("data")), block)


def per_device(f):
    return jax.jit(jax.shard_map(f, mesh=mesh, in_specs=(P(), P("data")), out_specs=P("data")))


one_device = np.asarray(dropout(key, jnp.ones((64, 16))))
n = len(devices)
g, naive, fixed = (np.asarray(a).reshape(n, 64 // n, 16) for a in  # (device, example, feature)
                   (global_mask, per_device(same_key)(key, x), per_device(own_key)(key, x)))
print("jit: equal to the one-device mask:", np.array_equal(g.reshape(64, 16), one_device))
print(f"shard_map, same key: all {n} blocks identical:", bool((naive == naive[0]).all()))
print(f"shard_map, fold_in(axis_index): all {n} blocks identical:", bool((fixed == fixed[0]).all()),
      "| equal to the jit mask:", np.array_equal(fixed, g))
assert np.array_equal(g.reshape(64, 16), one_device)
assert (naive == naive[0]).all()  # n copies of one mask: not what you want
assert not (fixed == fixed[0]).all() and not np.array_equal(fixed, g)
