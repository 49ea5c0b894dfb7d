"""Elementwise operations keep the sharding of their input: each device computes its own shard."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
import numpy as np
from jax import P
from jax.sharding import NamedSharding

# The accelerators if there are 8 of them, else the 8 emulated CPU devices.
devices = jax.devices()[:8] if jax.device_count() >= 8 else jax.devices("cpu")[:8]
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((8,), ("x",), devices=devices)
host = np.arange(32.0, dtype=np.float32).reshape(8, 4)
x = jax.device_put(host, NamedSharding(mesh, P("x", None)))  # one row per device

y = jnp.sin(x) * 2 + 1  # no jit, no annotation: the result follows x
print("x:", x.sharding.spec, " y:", y.sharding.spec)
assert y.sharding == x.sharding

z = jax.jit(lambda v: jnp.exp(-v) + v)(x)  # the same inside jax.jit
print("z:", z.sharding.spec)
assert z.sharding == x.sharding

# Device 3 holds row 3 of y, computed from row 3 of x without any communication.
shard = y.addressable_shards[3]
rows = shard.index[0]
print(f"device {shard.device.id} holds y[{rows.start}:{rows.stop}] =", np.asarray(shard.data))
assert shard.data.shape == (1, 4)
assert np.allclose(shard.data, np.sin(host[3:4]) * 2 + 1)
