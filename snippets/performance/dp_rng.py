"""Random numbers in a sharded jit: the values of one device and, by default, no communication."""
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

print("jax_threefry_partitionable default:", jax.config.jax_threefry_partitionable)
assert jax.config.jax_threefry_partitionable  # on by default since JAX 0.5.0
mesh = jax.make_mesh((len(devices),), ("data",), devices=devices)
key = jax.random.key(0)
x = jax.device_put(jnp.zeros((64, 1024)), NamedSharding(mesh, P("data")))  # 8 rows per device on 8 devices
add_noise = jax.jit(lambda key, x: x + jax.random.normal(key, x.shape))  # e.g. noise on a batch

HLO_OPS = "all-reduce|all-gather|reduce-scatter|all-to-all|collective-permute"
results = {}
for flag in (True, False):
    jax.config.update("jax_threefry_partitionable", flag)  # part of the jit cache key
    hlo = add_noise.lower(key, x).compile().as_text()
    comms = re.findall(rf" ({HLO_OPS})(?:-start)?\(", hlo)
    largest = max(math.prod(int(n) for n in s.split(","))  # the random bits each device holds
                  for s in re.findall(r"u32\[([\d,]+)\]", hlo))
    sharded, one_device = add_noise(key, x), jax.random.normal(key, (64, 1024))
    results[flag] = (comms, largest, sharded)
    print(f"partitionable={flag!s:5}: collectives {sorted(set(comms)) or 'none'},"
          f" largest u32 array per device {largest},"
          f" equal to one device: {bool((sharded == one_device).all())}")
    assert bool((sharded == one_device).all())
jax.config.update("jax_threefry_partitionable", True)  # back to the default

assert results[True][0] == [] and results[True][1] == 64 * 1024 // len(devices)  # each device: its rows
assert results[False][0] != [] and results[False][1] >= 64 * 1024  # every device: all bits
if devices[0].platform == "cpu":  # the collectives XLA:CPU's partitioner chose, read off this run
    assert sorted(set(results[False][0])) == ["all-gather", "collective-permute"]
same = bool((results[True][2] == results[False][2]).all())
print("the two settings give the same numbers:", same)
assert not same  # switching the flag changes the random stream
