"""Two JAX processes on one GPU: the settings each reads, what they change on this machine, and each one's share."""
import inspect
import json
import os
import subprocess
import sys

from jax._src import xla_bridge  # private: where JAX reports a GPU backend that did not start

NAMES = ("XLA_PYTHON_CLIENT_PREALLOCATE", "XLA_CLIENT_MEM_FRACTION", "XLA_PYTHON_CLIENT_MEM_FRACTION",
         "XLA_PYTHON_CLIENT_ALLOCATOR")
# A fresh process: what the GPU plugin would receive (jaxlib's reader), the backend, a result, the pool's limit.
CHILD = r"""
import json
import jax
import jax.numpy as jnp
from jaxlib import xla_client
options = xla_client.generate_pjrt_gpu_plugin_options()
stats = jax.devices()[0].memory_stats()
print(json.dumps({"preallocate": options.get("preallocate"), "fraction": options.get("memory_fraction"),
                  "backend": jax.default_backend(), "sum": float(jnp.arange(1000.0).sum()),
                  "bytes_limit": stats["bytes_limit"] if stats else None}))
"""
# Runs in a fresh process: its children open the accelerator, which a process holding it keeps from them.
base = {k: v for k, v in os.environ.items() if k not in NAMES}


def run(**settings):  # preallocation stays off in both, so neither reserves memory on a shared GPU
    env = {**base, "XLA_PYTHON_CLIENT_PREALLOCATE": "false", **settings}
    result = json.loads(subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True,
                                       text=True, check=True).stdout)
    print(" ".join(f"{k}={v}" for k, v in settings.items()) or "fraction not set", "->", result)
    return result


default, shared = run(), run(XLA_CLIENT_MEM_FRACTION=".45")
assert default["preallocate"] is False and default["fraction"] is None  # the plugin's own default cap applies
assert shared["fraction"] == 0.45
assert shared["backend"] == default["backend"] and shared["sum"] == default["sum"]  # same device, same numbers
if default["backend"] == "cpu":
    assert default["bytes_limit"] is None and shared["bytes_limit"] is None  # no pool on the CPU: nothing to cap
if default["backend"] == "tpu":
    assert shared["bytes_limit"] == default["bytes_limit"]  # a TPU does not read these variables

message = inspect.getsource(xla_bridge._suggest_missing_backends)  # the warning of a GPU backend that failed
assert "CUDA backend failed to initialize" in message and "pre-allocating too much" in message

for card in (24, 80):  # GiB of memory on the card
    for fraction in (0.75, shared["fraction"]):  # the documented default, and the value set above
        pools = 2 * fraction * card
        print(f"{card} GiB card, two processes at {fraction:.2f}: pools {pools:5.1f} GiB, outside them {card - pools:5.1f} GiB")
