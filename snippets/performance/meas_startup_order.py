"""Settings are read once: JAX_* variables at `import jax`, XLA_FLAGS when the backend starts; later changes are ignored."""
import os
import re
import subprocess
import sys

CHILD = r"""
import os, jax
os.environ["JAX_NUM_CPU_DEVICES"] = "4"  # after import jax: too late, the config was read at import
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=3"  # backend not started yet: in time
print("devices at start:", jax.device_count())  # the first JAX call starts the CPU backend
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=5"  # backend running: no effect
try:
    jax.config.update("jax_num_cpu_devices", 6)
except RuntimeError as error:
    print("config.update after start: RuntimeError:", str(error).split(" i.e.")[0])
print("devices at the end:", jax.device_count())
"""

# A fresh process with none of these variables set, on the CPU backend.
env = {k: v for k, v in os.environ.items() if k not in ("JAX_NUM_CPU_DEVICES", "XLA_FLAGS")}
env["JAX_PLATFORMS"] = "cpu"  # CPU by design: the number of CPU devices is what this demo sets
out = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, check=True)
print(out.stdout, end="")
lines = out.stdout.splitlines()
assert lines[0] == "devices at start: 3"  # XLA_FLAGS counted, JAX_NUM_CPU_DEVICES (set after import) did not
assert "jax_num_cpu_devices config should be updated before backends are initialized" in lines[1]
assert lines[2] == "devices at the end: 3"  # nothing changed once the backend was running
# A TPU VM without transparent hugepages adds one warning to any `import jax`; nothing else may appear.
assert re.sub(r".*Transparent hugepages are not enabled.*\n\s*warnings\.warn\(\n", "", out.stderr) == "", out.stderr
