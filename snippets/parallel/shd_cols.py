"""P(None, 'y'): columns split over y; the 2 devices along x hold copies of the same columns."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

# The accelerators if there are 8 of them, else the 8 emulated CPU devices.
devices = jax.devices()[:8] if jax.device_count() >= 8 else jax.devices("cpu")[:8]
print(f"{len(devices)} devices: {devices[0].platform}")


def span(sl, size):
    """A shard's slice as 'start:stop'; a dimension that is not split is slice(None)."""
    return f"{sl.start or 0}:{size if sl.stop is None else sl.stop}"


mesh = jax.make_mesh((2, 4), ("x", "y"), devices=devices)
host = np.arange(8 * 16, dtype=np.float32).reshape(8, 16)
x = jax.device_put(host, NamedSharding(mesh, P(None, "y")))  # None: rows are not split

print(x.sharding)
print("shards:", len(x.addressable_shards))
for s in x.addressable_shards:
    print(f"  {s.device}: data.shape={s.data.shape} rows {span(s.index[0], 8)} "
          f"cols {span(s.index[1], 16)} replica_id={s.replica_id}")
blocks = {s.index for s in x.addressable_shards}  # the distinct pieces of the array
print("distinct blocks:", len(blocks), "| copies of each:", 8 // len(blocks))

assert len(x.addressable_shards) == 8
assert all(s.data.shape == (8, 4) for s in x.addressable_shards)
assert len(blocks) == 4
assert [s.replica_id for s in x.addressable_shards] == [0] * 4 + [1] * 4
# Devices 0 and 4 (same column of the mesh) hold the same columns of the array.
by_device = {s.device: s for s in x.addressable_shards}
assert by_device[mesh.devices[0, 0]].index == by_device[mesh.devices[1, 0]].index
assert all(np.array_equal(s.data, host[s.index]) for s in x.addressable_shards)
jax.debug.visualize_array_sharding(x, use_color=False)
