"""Elementwise operations keep the sharding of their input: each device computes its own shard."""
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

mesh = jax.make_mesh((len(devices),), ("x",), devices=devices)
host = np.arange(32.0, dtype=np.float32).reshape(8, 4)
x = jax.device_put(host, NamedSharding(mesh, P("x", None)))  # the 8 rows split over the devices

y = jnp.sin(x) * 2 + 1  # no jit, no annotation: the result follows x
print("x:", x.sharding.spec, " y:", y.sharding.spec)
assert y.sharding == x.sharding

z = jax.jit(lambda v: jnp.exp(-v) + v)(x)  # the same inside jax.jit
print("z:", z.sharding.spec)
assert z.sharding == x.sharding

# The device that holds row 3 of y computed it from the same rows of x, without any communication.
shard = next(s for s in y.addressable_shards if s.index[0].start <= 3 < s.index[0].stop)
rows = shard.index[0]
print(f"device {shard.device.id} holds y[{rows.start}:{rows.stop}] =", np.asarray(shard.data))
assert shard.data.shape == (8 // len(devices), 4)
assert np.allclose(shard.data, np.sin(host[rows]) * 2 + 1)
