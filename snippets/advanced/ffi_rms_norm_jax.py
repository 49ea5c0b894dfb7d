"""A C++ RMS norm compiled with g++, registered with jax.ffi and called under jit and vmap."""
# The timings this program prints differ from run to run and from machine to machine.
import ctypes, os, pathlib, platform, shutil, subprocess, tempfile, time

import jax
import jax.numpy as jnp
import numpy as np

CPP = r"""
#include <cmath>
#include "xla/ffi/api/ffi.h"
namespace ffi = xla::ffi;

// Normalizes every row (the last axis) of x; all leading axes are batch axes.
static ffi::Error RmsNormImpl(float eps, ffi::Buffer<ffi::F32> x, ffi::ResultBuffer<ffi::F32> y) {
  if (x.dimensions().size() == 0) return ffi::Error::InvalidArgument("x must have an axis");
  const int64_t n = x.dimensions().back();
  const int64_t rows = n == 0 ? 0 : x.element_count() / n;
  const float* in = x.typed_data();
  float* out = y->typed_data();
  for (int64_t r = 0; r < rows; ++r, in += n, out += n) {
    float ss = 0.0f;
    for (int64_t i = 0; i < n; ++i) ss += in[i] * in[i];
    const float scale = 1.0f / std::sqrt(ss / n + eps);
    for (int64_t i = 0; i < n; ++i) out[i] = in[i] * scale;
  }
  return ffi::Error::Success();
}

XLA_FFI_DEFINE_HANDLER_SYMBOL(RmsNorm, RmsNormImpl,
    ffi::Ffi::Bind().Attr<float>("eps").Arg<ffi::Buffer<ffi::F32>>().Ret<ffi::Buffer<ffi::F32>>());
"""

gxx = shutil.which("g++")
if gxx is None:
    raise SystemExit("This example needs a C++ compiler: install g++ (Debian/Ubuntu: apt install g++).")

with tempfile.TemporaryDirectory() as tmp:
    src, lib_path = pathlib.Path(tmp, "rms_norm.cc"), pathlib.Path(tmp, "librms_norm.so")
    src.write_text(CPP)
    start = time.perf_counter()
    subprocess.run([gxx, "-std=c++17", "-O2", "-shared", "-fPIC", f"-I{jax.ffi.include_dir()}",
                    str(src), "-o", str(lib_path)], check=True, capture_output=True)
    seconds = time.perf_counter() - start
    lib = ctypes.cdll.LoadLibrary(str(lib_path))  # the library stays loaded after the folder is gone
    # Registration is process-wide and final: each build of the library gets its own name.
    TARGET = "kb_ffi_rms_norm_" + pathlib.Path(tmp).name

cpu = jax.devices("cpu")[0]  # the handler is C++ for the CPU: its data must live there
print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, JAX default backend: "
      f"{jax.default_backend()}, FFI data on: {cpu}")
print(f"g++ compile time: {seconds:.1f} s")
jax.ffi.register_ffi_target(TARGET, jax.ffi.pycapsule(lib.RmsNorm), platform="cpu")


def rms_norm(x, eps=1e-5, vmap_method="broadcast_all"):
    call = jax.ffi.ffi_call(TARGET, jax.ShapeDtypeStruct(x.shape, x.dtype),
                            vmap_method=vmap_method)
    return call(x, eps=np.float32(eps))  # the attribute type must match Attr<float>


def rms_norm_jnp(x, eps=1e-5):
    return x * jax.lax.rsqrt(jnp.mean(x**2, axis=-1, keepdims=True) + eps)


x = jax.device_put(np.sin(np.arange(96, dtype=np.float32)).reshape(4, 3, 8), cpu)  # same data as PyTorch
y = jax.jit(rms_norm)(x)  # the computation follows its data: compiled for and run on the CPU
assert y.devices() == {cpu}
print("y[0, 0, :3]:", np.asarray(y[0, 0, :3]))
print("max |ffi - jnp| under jit:", float(jnp.max(jnp.abs(y - rms_norm_jnp(x)))))
assert jnp.allclose(y, rms_norm_jnp(x), atol=1e-6)

# vmap: "broadcast_all" makes one C++ call that sees the batch axis; "sequential" loops (a scan).
for method in ["broadcast_all", "sequential"]:
    f = jax.jit(jax.vmap(lambda x: rms_norm(x, vmap_method=method)))
    calls_in_a_loop = "scan" in str(jax.make_jaxpr(f)(x))
    print(f"vmap_method={method!r}: loop over the batch: {calls_in_a_loop}, "
          f"max |ffi - jnp|: {float(jnp.max(jnp.abs(f(x) - rms_norm_jnp(x)))):.1e}")
    assert jnp.allclose(f(x), rms_norm_jnp(x), atol=1e-6) and calls_in_a_loop == (method == "sequential")
