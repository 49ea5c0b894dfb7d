"""Errors around an FFI call: an ffi::Error from C++, a wrong attribute type, vmap and grad without a rule."""
import ctypes, pathlib, re, shutil, subprocess, tempfile

import jax
import jax.numpy as jnp
import numpy as np

CPP = r"""
#include <cmath>
#include <string>
#include "xla/ffi/api/ffi.h"
namespace ffi = xla::ffi;

static ffi::Error Impl(float eps, ffi::Buffer<ffi::F32> x, ffi::ResultBuffer<ffi::F32> y) {
  if (!(eps > 0.0f))  // validate before touching the buffers
    return ffi::Error::InvalidArgument("rms_norm: eps must be > 0, got " + std::to_string(eps));
  const int64_t n = x.dimensions().back(), rows = n == 0 ? 0 : x.element_count() / n;
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x.typed_data() + r * n;
    float* yr = y->typed_data() + r * n;
    float ss = 0.0f;
    for (int64_t i = 0; i < n; ++i) ss += xr[i] * xr[i];
    for (int64_t i = 0; i < n; ++i) yr[i] = xr[i] / std::sqrt(ss / n + eps);
  }
  return ffi::Error::Success();
}
XLA_FFI_DEFINE_HANDLER_SYMBOL(CheckedRmsNorm, Impl,
    ffi::Ffi::Bind().Attr<float>("eps").Arg<ffi::Buffer<ffi::F32>>().Ret<ffi::Buffer<ffi::F32>>());
"""

gxx = shutil.which("g++")
if gxx is None:
    raise SystemExit("This example needs a C++ compiler: install g++ (Debian/Ubuntu: apt install g++).")
with tempfile.TemporaryDirectory() as tmp:
    src, lib_path = pathlib.Path(tmp, "checked.cc"), pathlib.Path(tmp, "libchecked.so")
    src.write_text(CPP)
    subprocess.run([gxx, "-std=c++17", "-O2", "-shared", "-fPIC", f"-I{jax.ffi.include_dir()}",
                    str(src), "-o", str(lib_path)], check=True, capture_output=True)
    lib = ctypes.cdll.LoadLibrary(str(lib_path))
    TARGET = "kb_ffi_errors_" + pathlib.Path(tmp).name  # process-wide names: one per build
jax.ffi.register_ffi_target(TARGET, jax.ffi.pycapsule(lib.CheckedRmsNorm))

x = jax.device_put(np.ones((2, 4), np.float32), jax.devices("cpu")[0])  # a CPU handler: data on the CPU
rms_norm = jax.ffi.ffi_call(TARGET, jax.ShapeDtypeStruct(x.shape, x.dtype))
Err = jax.errors.JaxRuntimeError
attempts = {  # what: (exception expected, text it contains, the call)
    "C++ returns an error": (Err, "eps must be > 0",
                             lambda: jax.jit(lambda x: rms_norm(x, eps=np.float32(-1.0)))(x)),
    "Python float attribute": (Err, "expected F32 but got F64",
                               lambda: jax.jit(lambda x: rms_norm(x, eps=1e-5))(x)),
    "vmap, no vmap_method": (NotImplementedError, "vmap_method=None",
                             lambda: jax.vmap(lambda x: rms_norm(x, eps=np.float32(1e-5)))(x)),
    "grad, no custom_vjp": (ValueError, "cannot be differentiated",
                            lambda: jax.grad(lambda x: rms_norm(x, eps=np.float32(1e-5)).sum())(x)),
}
for what, (error, text, attempt) in attempts.items():
    try:
        attempt().block_until_ready()
    except error as e:
        print(f"{what}: {type(e).__name__}: {str(e).splitlines()[-1].replace(TARGET, '<target>')}")
        assert text in str(e)
    else:
        raise AssertionError(f"{what}: expected {error.__name__}")
assert jnp.allclose(rms_norm(x, eps=np.float32(1e-5)), 1.0, atol=1e-5)  # the right call works

# The first two pass tracing and compiling: they fail only when the program runs.
for eps in (np.float32(-1.0), 1e-5):
    jax.jit(lambda x, eps=eps: rms_norm(x, eps=eps)).lower(x).compile()
# The last two fail while JAX traces: eval_shape only traces, and it raises the same errors.
for error, fn in [(NotImplementedError, jax.vmap(lambda x: rms_norm(x, eps=np.float32(1e-5)))),
                  (ValueError, jax.grad(lambda x: rms_norm(x, eps=np.float32(1e-5)).sum()))]:
    try:
        jax.eval_shape(fn, x)
    except error:
        pass
    else:
        raise AssertionError(f"expected {error.__name__} while tracing")
# Under jit the call is one custom_call operation, with eps stored in it as an f32 attribute.
lowered = jax.jit(lambda x: rms_norm(x, eps=np.float32(1e-5))).lower(x).as_text()
eps_attr = re.search(r"eps = \S+ : f32", lowered)
print("custom_call operations:", lowered.count("stablehlo.custom_call"), "| attribute:", eps_attr.group(0))
assert lowered.count("stablehlo.custom_call") == 1
