"""save_device_memory_profile writes a gzipped pprof snapshot of the live device buffers."""
import gzip
import os
import tempfile

import jax
import jax.numpy as jnp


def make_buffers():
    return [jnp.ones((256, 1024)) for _ in range(4)]  # 4 float32 buffers of 1 MiB


buffers = make_buffers()
jax.block_until_ready(buffers)  # make sure the buffers exist before the snapshot

live = jax.live_arrays()  # what Python still holds on the default backend
print(f"live arrays: {len(live)}, {sum(a.nbytes for a in live) / 2**20:.1f} MiB")
print("memory_stats() on", jax.devices()[0].platform, "->", jax.devices()[0].memory_stats())

with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, "memory.prof")
    jax.profiler.save_device_memory_profile(path)
    with open(path, "rb") as fh:
        data = fh.read()
print(f"memory.prof: about {len(data) / 1024:.0f} KiB, starts with {data[:2].hex()} (the gzip header)")
profile = gzip.decompress(data)  # a pprof protocol buffer: open it with `pprof --http=: memory.prof`
assert data[:2] == b"\x1f\x8b"
assert b"make_buffers" in profile  # the Python function that allocated the buffers is recorded
assert all(any(b is a for a in live) for b in buffers)  # our 4 MiB is among the live arrays
if jax.default_backend() == "cpu":
    assert jax.devices()[0].memory_stats() is None  # the CPU client keeps no allocator statistics
