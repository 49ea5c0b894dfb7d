"""P(): nothing is split; every device holds a full copy of the array."""
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
x = jax.device_put(host, NamedSharding(mesh, P()))  # an empty spec: replicated

print(x.sharding)
print("shards:", len(x.addressable_shards), "| fully replicated:", x.sharding.is_fully_replicated)
for s in x.addressable_shards:
    print(f"  {s.device}: data.shape={s.data.shape} replica_id={s.replica_id}")
blocks = {s.index for s in x.addressable_shards}  # the distinct pieces of the array
print("distinct blocks:", len(blocks), "| copies of each:", len(devices) // len(blocks))

assert len(x.addressable_shards) == len(devices) and len(blocks) == 1
assert all(s.data.shape == (8, 16) for s in x.addressable_shards)
assert [s.replica_id for s in x.addressable_shards] == list(range(len(devices)))
assert x.sharding.is_fully_replicated
assert all(np.array_equal(s.data, host) for s in x.addressable_shards)
jax.debug.visualize_array_sharding(x, use_color=False)
