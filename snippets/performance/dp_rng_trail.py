"""Dropout in a data-parallel step: how many random bits each device makes, under jit and under shard_map."""
import math
import os
import re

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax import P
from jax.sharding import NamedSharding

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")
jax.config.update("jax_default_device", devices[0])  # arrays made without a sharding go there too
mesh = jax.make_mesh((len(devices),), ("data",), devices=devices)
key = jax.random.key(0)
x = jax.device_put(jnp.ones((256, 1024)), NamedSharding(mesh, P("data")))  # 32 rows per device on 8


def dropout(key, x):
    return jnp.where(jax.random.bernoulli(key, 0.5, x.shape), 2 * x, 0.0)


def own_block(key, block):  # shard_map: each device draws for its own block, with its own key
    return dropout(jax.random.fold_in(key, jax.lax.axis_index("data")), block)


steps = {"jit": jax.jit(dropout),
         "shard_map": jax.jit(jax.shard_map(own_block, mesh=mesh, in_specs=(P(), P("data")), out_specs=P("data")))}
COLLECTIVES = r" (all-reduce|all-gather|reduce-scatter|all-to-all|collective-permute)(?:-start)?\("
work = {}
for flag in (False, True):
    jax.config.update("jax_threefry_partitionable", flag)  # part of the jit cache key: compiles again
    for name, step in steps.items():
        hlo = step.lower(key, x).compile().as_text()  # the program of one device
        bits = max(math.prod(int(n) for n in s.split(",")) for s in re.findall(r"u32\[([\d,]+)\]", hlo))
        work[name, flag] = (bits, sorted(set(re.findall(COLLECTIVES, hlo))))
        print(f"partitionable={flag!s:5} {name:9}: {bits:6} random u32 per device, collectives {work[name, flag][1] or 'none'}")
jax.config.update("jax_threefry_partitionable", True)  # back to the default

block, whole = 256 * 1024 // len(devices), 256 * 1024
assert work["shard_map", False] == work["shard_map", True] == (block, [])  # its own block, either way
assert work["jit", True] == (block, [])  # the default: as little as shard_map
assert work["jit", False][0] >= whole and work["jit", False][1]  # off: the whole batch's bits, and communication
