"""PyTorch: the same C++ RMS norm, loaded with ctypes and registered with torch.library.custom_op."""
# The timings this program prints differ from run to run and from machine to machine.
import ctypes, os, pathlib, platform, shutil, subprocess, tempfile, time

import numpy as np
import torch

CPP = r"""
#include <cmath>
#include <cstdint>
// Plain C ABI: PyTorch passes raw pointers, so no framework header is needed.
extern "C" void rms_norm_f32(const float* in, float* out, int64_t rows, int64_t n, float eps) {
  for (int64_t r = 0; r < rows; ++r, in += n, out += n) {
    float ss = 0.0f;
    for (int64_t i = 0; i < n; ++i) ss += in[i] * in[i];
    const float scale = 1.0f / std::sqrt(ss / n + eps);
    for (int64_t i = 0; i < n; ++i) out[i] = in[i] * scale;
  }
}
"""

gxx = shutil.which("g++")
if gxx is None:
    raise SystemExit("This example needs a C++ compiler: install g++ (Debian/Ubuntu: apt install g++).")
with tempfile.TemporaryDirectory() as tmp:
    src, lib_path = pathlib.Path(tmp, "rms.cc"), pathlib.Path(tmp, "librms.so")
    src.write_text(CPP)
    start = time.perf_counter()
    subprocess.run([gxx, "-std=c++17", "-O2", "-shared", "-fPIC", str(src), "-o", str(lib_path)],
                   check=True, capture_output=True)
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, torch {torch.__version__}")
    print(f"g++ compile time (no torch headers): {time.perf_counter() - start:.1f} s")
    lib = ctypes.cdll.LoadLibrary(str(lib_path))
lib.rms_norm_f32.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_float]


@torch.library.custom_op("kb_ffi::rms_norm", mutates_args=(), device_types="cpu")
def rms_norm(x: torch.Tensor, eps: float) -> torch.Tensor:
    x = x.contiguous()
    y = torch.empty_like(x)
    lib.rms_norm_f32(x.data_ptr(), y.data_ptr(), x.numel() // x.shape[-1], x.shape[-1], eps)
    return y


@rms_norm.register_fake  # shapes only: what torch.compile traces with
def _(x, eps):
    return torch.empty_like(x)


x = torch.from_numpy(np.sin(np.arange(96, dtype=np.float32)).reshape(4, 3, 8))
y = torch.ops.kb_ffi.rms_norm(x, 1e-5)
y_torch = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5)
print("y[0, 0, :3]:", y[0, 0, :3].numpy())
print("max |custom op - torch|:", float((y - y_torch).abs().max()))
assert torch.allclose(y, y_torch, atol=1e-6)
