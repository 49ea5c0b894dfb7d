"""Without jax.distributed.initialize there is one process, and it owns every device."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")
backend = devices[0].platform  # the counts below are those of this backend

print("distributed initialized:", jax.distributed.is_initialized())
print("process_index:", jax.process_index(), "| process_count:", jax.process_count())
print("local_device_count:", jax.local_device_count(backend), "| device_count:", jax.device_count(backend))
print("owner of each device:", [d.process_index for d in devices])

assert not jax.distributed.is_initialized()
assert jax.process_index() == 0 and jax.process_count() == 1
# With a single process, the local devices are all the devices.
assert jax.local_devices(backend=backend) == jax.devices(backend)
assert jax.local_device_count(backend) == jax.device_count(backend) == len(jax.devices(backend))
