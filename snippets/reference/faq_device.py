"""Where an array lives: .devices(), .sharding, and jax.device_put to move it."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax import P
from jax.sharding import NamedSharding, SingleDeviceSharding

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

x = jnp.arange(8.0)  # a new array goes to the default device, jax.devices()[0]
print("x.devices():", x.devices())
print("x.sharding: ", x.sharding)
assert x.devices() == {jax.devices()[0]} and x.device == jax.devices()[0]
assert isinstance(x.sharding, SingleDeviceSharding)

# The counterpart of x.to(device): a copy on another device; x itself stays where it was.
y = jax.device_put(x, devices[1])
print("y.devices():", y.devices())
assert y.devices() == {devices[1]} and x.devices() == {jax.devices()[0]}

# An array split over several devices reports all of them.
mesh = jax.make_mesh((len(devices),), ("d",), devices=devices)
z = jax.device_put(x, NamedSharding(mesh, P("d")))
print("z is on", len(z.devices()), "devices:", z.sharding.spec)
assert z.devices() == set(devices)
assert z.device == z.sharding  # .device gives the sharding when there is more than one device
assert jnp.array_equal(x, y) and jnp.array_equal(x, z)  # same values everywhere
