"""The sharding classes: every jax.Array has a Sharding; a plain jnp array has a SingleDeviceSharding."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
from jax.sharding import Mesh, NamedSharding, PartitionSpec, Sharding, SingleDeviceSharding

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

plain = jnp.arange(16.0).reshape(2, 8)  # made without saying where: the default device
print("plain:  ", type(plain.sharding).__name__, plain.sharding.device_set, "| committed:", plain.committed)
assert isinstance(plain.sharding, SingleDeviceSharding)
assert plain.sharding.device_set == {jax.devices()[0]} and not plain.committed

mesh = jax.make_mesh((2, len(devices) // 2), ("x", "y"), devices=devices)  # 2 x 4 on 8 devices
spread = jax.device_put(plain, NamedSharding(mesh, PartitionSpec("x", "y")))
named = spread.sharding
print("spread: ", type(named).__name__, "| mesh:", type(named.mesh).__name__, "| spec:", named.spec)
assert isinstance(named, NamedSharding) and spread.committed  # placed on purpose
assert isinstance(named.mesh, Mesh) and isinstance(named.spec, PartitionSpec)
assert jax.P is PartitionSpec  # the short alias

# Sharding is the base class: both concrete shardings are Shardings, and both arrays are jax.Array.
assert isinstance(plain.sharding, Sharding) and isinstance(named, Sharding)
assert isinstance(plain, jax.Array) and isinstance(spread, jax.Array)
print("both jax.Array:", isinstance(plain, jax.Array) and isinstance(spread, jax.Array))
try:
    Sharding().device_set  # the base class only declares the interface
except NotImplementedError as err:
    print("Sharding().device_set -> NotImplementedError:", err)
else:
    raise AssertionError("the base class should not implement device_set")
for cls in (SingleDeviceSharding, NamedSharding):
    assert "device_set" in vars(cls) and "is_fully_replicated" in vars(cls)  # answered by the subclass
    assert "shard_shape" not in vars(cls)  # computed by the base class from those answers
print("shard_shape comes from:", NamedSharding.shard_shape.__qualname__)

# Uncommitted + committed: the computation runs where the committed array lives.
mixed = plain + spread
print("plain + spread:", mixed.sharding.spec, "| committed:", mixed.committed)
assert mixed.sharding == named and mixed.committed
# Two arrays committed to different devices cannot be combined.
a, b = (jax.device_put(jnp.ones(3), d) for d in devices[:2])
try:
    a + b
except ValueError as err:
    print("committed to devices 0 and 1 -> ValueError:", str(err).split(".")[0])
else:
    raise AssertionError("arrays committed to different devices should not combine")
