"""The driver and ptxas versions behind XLA's two ptxas warnings: the conditions, and this machine's versions."""
import os
import re
import shutil
import subprocess

from jax._src import lib  # private: the CUDA folder JAX hands to XLA, and the CUDA plugin's version queries


def driver_older_than_ptxas(driver, ptxas):  # older XLA releases: xla/service/gpu/nvptx_compiler.cc
    return driver < ptxas[0] * 1000 + ptxas[1] * 10  # the driver says 12020 for CUDA 12.2


def clamping_warning(cc_major, ptxas):  # the pinned plugin: xla/stream_executor/cuda/ptx_compiler_helpers.cc
    return cc_major >= 9 and (12, 0, 0) <= ptxas < (12, 6, 85)  # Hopper and newer, ptxas of CUDA 12.0 to 12.6.2


# The versions of two reports: jax-ml/jax#19821 (driver 12.2, ptxas 12.3.107) and jax-ml/jax#25718 (ptxas 12.1.66).
assert driver_older_than_ptxas(12020, (12, 3, 107)) and not driver_older_than_ptxas(12040, (12, 4, 131))
assert clamping_warning(9, (12, 1, 66)) and not clamping_warning(8, (12, 1, 66))
assert not clamping_warning(9, (12, 6, 85)) and not clamping_warning(9, (13, 0, 88))


def ptxas_version(path):  # "Cuda compilation tools, release 13.0, V13.0.88" -> (13, 0, 88)
    out = subprocess.run([path, "--version"], capture_output=True, text=True, check=True).stdout
    return tuple(int(n) for n in re.search(r"V(\d+)\.(\d+)\.(\d+)", out).groups())


# Where XLA looks for ptxas: first in the folder that JAX names, then on PATH.
print("folder JAX hands to XLA (CUDA_ROOT or the pip CUDA compiler):", lib.cuda_path)
found = [p for p in ([os.path.join(lib.cuda_path, "bin", "ptxas")] if lib.cuda_path else []) if os.path.isfile(p)]
found += [p for p in [shutil.which("ptxas")] if p]
for path in found:
    print(f"ptxas {path}: version {'.'.join(map(str, ptxas_version(path)))}")
if not found:
    print("ptxas: none in that folder or on PATH")

driver = lib.cuda_versions.cuda_driver_get_version() if lib.cuda_versions is not None else None
print("CUDA version of the NVIDIA driver:", driver if driver else "not asked: no CUDA plugin is installed")
if driver and found:
    print("older releases would warn about the driver:", driver_older_than_ptxas(driver, ptxas_version(found[0])))
