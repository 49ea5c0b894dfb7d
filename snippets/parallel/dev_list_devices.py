"""List the devices JAX can use, their count and their attributes."""
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # the host CPU, even where a GPU is present
os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # 8 emulated devices; must come before `import jax`
import jax

devices = jax.devices()  # every device of the default backend, in all processes
print("backend:", jax.default_backend(), "| host CPU cores:", os.cpu_count())
print("jax.devices():", devices)
print("device_count:", jax.device_count(), "| local_device_count:", jax.local_device_count(),
      "| process_count:", jax.process_count())
for d in devices[:2]:
    print(f"  id={d.id} platform={d.platform!r} device_kind={d.device_kind!r} "
          f"process_index={d.process_index}")

# One process sees all 8 emulated devices, numbered 0..7, all of the same kind.
assert jax.default_backend() == "cpu"
assert jax.device_count() == jax.local_device_count() == len(devices) == 8
assert jax.process_count() == 1
assert [d.id for d in devices] == list(range(8))
assert {d.platform for d in devices} == {"cpu"}
assert len({d.device_kind for d in devices}) == 1
assert all(d.process_index == 0 for d in devices)
