"""PyTorch: an in-place C function as a custom op (mutates_args), with register_fake for torch.compile."""
import ctypes, pathlib, shutil, subprocess, tempfile

import torch

C = r"""
#include <cstdint>
extern "C" void add_one_inplace(float* x, int64_t n) {
  for (int64_t i = 0; i < n; ++i) x[i] += 1.0f;
}
extern "C" void add_one(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = x[i] + 1.0f;
}
"""

gxx = shutil.which("g++")
if gxx is None:
    raise SystemExit("This example needs a C++ compiler: install g++ (Debian/Ubuntu: apt install g++).")
with tempfile.TemporaryDirectory() as tmp:
    src, lib_path = pathlib.Path(tmp, "add_one.cc"), pathlib.Path(tmp, "libadd_one.so")
    src.write_text(C)
    subprocess.run([gxx, "-O2", "-shared", "-fPIC", str(src), "-o", str(lib_path)],
                   check=True, capture_output=True)
    lib = ctypes.cdll.LoadLibrary(str(lib_path))
lib.add_one_inplace.argtypes = [ctypes.c_void_p, ctypes.c_int64]
lib.add_one.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64]


# In place: PyTorch is told which argument the op writes (JAX: input_output_aliases).
@torch.library.custom_op("kb_ffig::add_one_", mutates_args=("x",), device_types="cpu")
def add_one_(x: torch.Tensor) -> None:
    assert x.is_contiguous()
    lib.add_one_inplace(x.data_ptr(), x.numel())


# Out of place, with a fake (shape-only) kernel so that torch.compile can trace it.
@torch.library.custom_op("kb_ffig::add_one", mutates_args=(), device_types="cpu")
def add_one(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    y = torch.empty_like(x)
    lib.add_one(x.data_ptr(), y.data_ptr(), x.numel())
    return y


@add_one.register_fake
def _(x):
    return torch.empty_like(x)


x = torch.arange(4, dtype=torch.float32)
pointer = x.data_ptr()
torch.ops.kb_ffig.add_one_(x)
print("in place:", x.tolist(), "| same storage:", x.data_ptr() == pointer)
assert x.tolist() == [1.0, 2.0, 3.0, 4.0] and x.data_ptr() == pointer

# fullgraph=True: the op must trace without a graph break; aot_eager skips code generation.
compiled = torch.compile(lambda t: add_one(t) * 2, backend="aot_eager", fullgraph=True)
y = compiled(torch.arange(4, dtype=torch.float32))
print("compiled:", y.tolist())
assert y.tolist() == [2.0, 4.0, 6.0, 8.0]
