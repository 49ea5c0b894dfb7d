"""Without jax.distributed.initialize there is one process, and it owns every device."""
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # the host CPU, even where a GPU is present
os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # 8 emulated devices; must come before `import jax`
import jax

print("distributed initialized:", jax.distributed.is_initialized())
print("process_index:", jax.process_index(), "| process_count:", jax.process_count())
print("local_device_count:", jax.local_device_count(), "| device_count:", jax.device_count())
print("owner of each device:", [d.process_index for d in jax.devices()])

assert not jax.distributed.is_initialized()
assert jax.process_index() == 0 and jax.process_count() == 1
# With a single process, the local devices are all the devices.
assert jax.local_devices() == jax.devices()
assert jax.local_device_count() == jax.device_count() == len(jax.devices())
