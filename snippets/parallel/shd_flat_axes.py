"""P(('x', 'y')): one array dimension split over both mesh axes, so over every device, x major."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

mesh = jax.make_mesh((2, len(devices) // 2), ("x", "y"), devices=devices)  # 2 x 4 on 8 devices
host = np.arange(8 * 16, dtype=np.float32).reshape(8, 16)
x = jax.device_put(host, NamedSharding(mesh, P(("x", "y"))))  # a tuple: both axes, in order


def row_owners(arr):
    """Device ids in the order of the row blocks they hold."""
    shards = sorted(arr.addressable_shards, key=lambda s: s.index[0].start)
    return [s.device.id for s in shards]


print(x.sharding)
print("shards:", len(x.addressable_shards))
for s in x.addressable_shards:
    print(f"  {s.device}: data.shape={s.data.shape} rows {s.index[0].start}:{s.index[0].stop}")
blocks = {s.index for s in x.addressable_shards}  # the distinct pieces of the array
print("distinct blocks:", len(blocks), "| copies of each:", len(devices) // len(blocks))
print(f"row blocks 0..{len(blocks) - 1} live on devices", row_owners(x))
assert len(x.addressable_shards) == len(blocks) == len(devices)
assert all(s.data.shape == (8 // len(devices), 16) for s in x.addressable_shards)
assert all(np.array_equal(s.data, host[s.index]) for s in x.addressable_shards)
assert row_owners(x) == [d.id for d in mesh.devices.flat]  # x is the outer (slower) axis

# The order inside the tuple matters: ('y', 'x') makes y the outer axis.
swapped = jax.device_put(host, NamedSharding(mesh, P(("y", "x"))))
print("with P(('y', 'x')) they live on", row_owners(swapped))
assert row_owners(swapped) == [d.id for d in mesh.devices.T.flat]  # [0, 4, 1, 5, ...] on 8 CPU devices
jax.debug.visualize_array_sharding(x, use_color=False)
