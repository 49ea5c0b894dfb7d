"""make_array_from_callback asks for each local device's block; the process-local variant slices for you."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import numpy as np
from jax import P
from jax.sharding import NamedSharding

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")

data = np.arange(16.0).reshape(8, 2)  # stands in for a dataset on disk
mesh_shape = (len(devices) // 2, 2) if len(devices) > 2 else (2, 1)  # 4 x 2 on 8 devices; data has at least 2
mesh = jax.make_mesh(mesh_shape, ("data", "model"), devices=devices)
sharding = NamedSharding(mesh, P("data"))  # rows over "data"

requested = []


def load_block(index):  # index: a tuple of slices into the global array
    requested.append(index)
    return data[index]  # in real code: read only these rows from disk


x = jax.make_array_from_callback(data.shape, sharding, load_block)
print("callback calls:", len(requested), "| first index:", requested[0])
print("distinct blocks:", sorted({idx[0].start for idx in requested}))
assert len(requested) == len(sharding.addressable_devices) == len(devices)  # one call per local device
assert len({idx[0].start for idx in requested}) == mesh.shape["data"]  # row blocks, each on all of "model"

# The process-local variant: pass this process's rows, JAX does the slicing.
# With one process, "this process's rows" are all of them.
y = jax.make_array_from_process_local_data(sharding, data)
assert y.sharding == x.sharding and np.array_equal(x, y) and np.array_equal(x, data)
print("same array either way:", np.array_equal(x, y), "| shape", y.shape)
