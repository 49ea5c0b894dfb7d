"""P('x', 'y'): rows split over mesh axis x, columns over y; each device holds one block."""
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
x = jax.device_put(host, NamedSharding(mesh, P("x", "y")))

print(x.sharding)
print("shards:", len(x.addressable_shards), "| shard shape:", x.sharding.shard_shape(x.shape))
for s in x.addressable_shards:
    rows, cols = s.index  # the slice of the global array that this device holds
    print(f"  {s.device}: data.shape={s.data.shape} rows {rows.start}:{rows.stop} "
          f"cols {cols.start}:{cols.stop}")
blocks = {s.index for s in x.addressable_shards}  # the distinct pieces of the array
print("distinct blocks:", len(blocks), "| copies of each:", len(devices) // len(blocks))

assert len(x.addressable_shards) == len(blocks) == len(devices)
assert all(s.data.shape == (8 // 2, 16 // mesh.shape["y"]) for s in x.addressable_shards)  # (4, 4) on 8
assert {s.device for s in x.addressable_shards} == set(devices)  # one block each
assert all(np.array_equal(s.data, host[s.index]) for s in x.addressable_shards)
assert np.array_equal(np.asarray(x), host)  # still one (8, 16) array to your code
# Drawn last: box lines (use_color=False) read the same in a terminal and a notebook.
jax.debug.visualize_array_sharding(x, use_color=False)
