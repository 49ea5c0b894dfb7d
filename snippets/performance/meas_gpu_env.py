"""What the GPU plugin reads from XLA_PYTHON_CLIENT_* and XLA_CLIENT_MEM_FRACTION (runs without a GPU)."""
import json
import os
import subprocess
import sys

# jaxlib.xla_client.generate_pjrt_gpu_plugin_options is the (internal) function that the CUDA and ROCm
# plugins call once, when JAX starts the GPU backend. We call it in a child process for each setting.
CHILD = r"""
import json
from jaxlib import xla_client
try:
    print(json.dumps(xla_client.generate_pjrt_gpu_plugin_options()))
except ValueError as error:
    print(json.dumps({"ValueError": str(error)}))
"""
NAMES = ("XLA_PYTHON_CLIENT_PREALLOCATE", "XLA_CLIENT_MEM_FRACTION", "XLA_PYTHON_CLIENT_MEM_FRACTION",
         "XLA_PYTHON_CLIENT_ALLOCATOR")
base = {k: v for k, v in os.environ.items() if k not in NAMES}


def plugin_options(**settings):
    out = subprocess.run([sys.executable, "-c", CHILD], env={**base, **settings},
                         capture_output=True, text=True, check=True)
    options = json.loads(out.stdout)
    shown = {k: options[k] for k in ("allocator", "preallocate", "memory_fraction", "ValueError") if k in options}
    print(" ".join(f"{k}={v}" for k, v in settings.items()) or "(nothing set)", "->", shown)
    return options


default = plugin_options()
assert default["allocator"] == "default"
assert "preallocate" not in default and "memory_fraction" not in default  # the plugin's defaults apply
assert plugin_options(XLA_PYTHON_CLIENT_PREALLOCATE="false")["preallocate"] is False
assert plugin_options(XLA_CLIENT_MEM_FRACTION=".5")["memory_fraction"] == 0.5
assert plugin_options(XLA_PYTHON_CLIENT_MEM_FRACTION=".5")["memory_fraction"] == 0.5  # older name, still read
both = plugin_options(XLA_CLIENT_MEM_FRACTION=".5", XLA_PYTHON_CLIENT_MEM_FRACTION=".4")
assert "Remove the latter one, it is deprecated" in both["ValueError"]
assert plugin_options(XLA_PYTHON_CLIENT_ALLOCATOR="platform")["allocator"] == "platform"
typo = plugin_options(XLA_PYTHON_CLIENT_ALLOCATOR="platfrom")
assert '"default", "platform", "bfc", "cuda_async", "vmm", "address"' in typo["ValueError"]
