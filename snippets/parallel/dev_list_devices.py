"""List the devices JAX can use, their count and their attributes."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform} | default backend: {jax.default_backend()}"
      f" | host CPU cores: {os.cpu_count()}")
print("jax.devices():", jax.devices())  # every device of the default backend, in all processes
print("device_count:", jax.device_count(), "| local_device_count:", jax.local_device_count(),
      "| process_count:", jax.process_count())
for d in devices[:2]:
    print(f"  id={d.id} platform={d.platform!r} device_kind={d.device_kind!r} "
          f"process_index={d.process_index}")

# jax.devices() is the default backend; one process drives all of its devices.
assert {d.platform for d in jax.devices()} == {jax.default_backend()}
assert jax.device_count() == jax.local_device_count() == len(jax.devices())
assert jax.process_count() == 1
# The program's devices (8, 4 or 2 of them): distinct, all of one kind, all owned by this process.
assert len(devices) == len({d.id for d in devices}) in (8, 4, 2)
assert len({d.platform for d in devices}) == 1 and len({d.device_kind for d in devices}) == 1
assert all(d.process_index == 0 for d in devices)
