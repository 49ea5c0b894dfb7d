"""The device count is fixed when JAX starts its backend: set it first, or it is ignored or refused."""
import os
import subprocess
import sys

# Each case runs in a fresh Python, because a backend, once started, cannot be restarted.
CASES = {
    "env var before import jax": (
        "import os; os.environ['JAX_NUM_CPU_DEVICES'] = '8'\n"
        "import jax; print(jax.device_count())"),
    "env var after import jax": (
        "import os, jax; os.environ['JAX_NUM_CPU_DEVICES'] = '8'\n"
        "print(jax.device_count())"),
    "config.update before first use": (
        "import jax; jax.config.update('jax_num_cpu_devices', 8)\n"
        "print(jax.device_count())"),
    "config.update after first use": (
        "import jax; print(jax.device_count())\n"
        "try:\n    jax.config.update('jax_num_cpu_devices', 8)\n"
        "except RuntimeError as err:\n    print('RuntimeError:', err)"),
    # The older XLA flag is read by the backend when it starts, not by `import jax`.
    "XLA_FLAGS before import jax": (
        "import os; os.environ['XLA_FLAGS'] = '--xla_force_host_platform_device_count=8'\n"
        "import jax; print(jax.device_count())"),
    "XLA_FLAGS after import jax": (
        "import os, jax; os.environ['XLA_FLAGS'] = '--xla_force_host_platform_device_count=8'\n"
        "print(jax.device_count())"),
    "XLA_FLAGS=4 and env var=8": (
        "import os; os.environ['XLA_FLAGS'] = '--xla_force_host_platform_device_count=4'\n"
        "os.environ['JAX_NUM_CPU_DEVICES'] = '8'\nimport jax; print(jax.device_count())"),
}
# A clean environment for the children: no inherited device settings.
env = {k: v for k, v in os.environ.items() if k not in ("JAX_NUM_CPU_DEVICES", "XLA_FLAGS")}
env["JAX_PLATFORMS"] = "cpu"  # CPU by design: the children count emulated CPU devices, not a GPU's

out = {}
for name, code in CASES.items():
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    out[name] = run.stdout.strip()
    print(f"{name:31} -> {out[name].replace(chr(10), ' | ')}")

assert out["env var before import jax"] == "8"
assert out["env var after import jax"] == "1"  # read at import time: silently ignored
assert out["config.update before first use"] == "8"
first, error = out["config.update after first use"].split("\n")
assert first == "1" and error.startswith("RuntimeError:")
assert "before backends are initialized" in error
assert out["XLA_FLAGS before import jax"] == "8"
assert out["XLA_FLAGS after import jax"] == "8"  # read when the backend starts, after the import
assert out["XLA_FLAGS=4 and env var=8"] == "8"  # the JAX option wins over the XLA flag
