"""P('x'): rows split over x; the devices along y hold copies of the same rows."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")


def span(sl, size):
    """A shard's slice as 'start:stop'; a dimension that is not split is slice(None)."""
    return f"{sl.start or 0}:{size if sl.stop is None else sl.stop}"


mesh = jax.make_mesh((2, len(devices) // 2), ("x", "y"), devices=devices)  # 2 x 4 on 8 devices
y = mesh.shape["y"]
host = np.arange(8 * 16, dtype=np.float32).reshape(8, 16)
x = jax.device_put(host, NamedSharding(mesh, P("x")))  # same as P("x", None)

print(x.sharding)
print("shards:", len(x.addressable_shards))
for s in x.addressable_shards:
    print(f"  {s.device}: data.shape={s.data.shape} rows {span(s.index[0], 8)} "
          f"cols {span(s.index[1], 16)} replica_id={s.replica_id}")
blocks = {s.index for s in x.addressable_shards}  # the distinct pieces of the array
print("distinct blocks:", len(blocks), "| copies of each:", len(devices) // len(blocks))

assert len(x.addressable_shards) == len(devices)
assert all(s.data.shape == (4, 16) for s in x.addressable_shards)
assert len(blocks) == 2  # on 8 devices, rows 0:4 on devices 0-3 and rows 4:8 on devices 4-7
assert [s.replica_id for s in x.addressable_shards] == list(range(y)) * 2
assert all(np.array_equal(s.data, host[s.index]) for s in x.addressable_shards)
# A missing trailing entry means None: the two shardings place the same data the same way.
assert x.sharding.is_equivalent_to(NamedSharding(mesh, P("x", None)), x.ndim)
jax.debug.visualize_array_sharding(x, use_color=False)
