"""Differentiating an FFI call: jax.custom_vjp with a second C++ target for the backward pass."""
import ctypes, functools, pathlib, shutil, subprocess, tempfile

import jax
import jax.numpy as jnp
import numpy as np

CPP = r"""
#include <cmath>
#include "xla/ffi/api/ffi.h"
namespace ffi = xla::ffi;
using F32 = ffi::Buffer<ffi::F32>;

static float Scale(const float* x, int64_t n, float eps) {  // 1 / sqrt(mean(x^2) + eps)
  float ss = 0.0f;
  for (int64_t i = 0; i < n; ++i) ss += x[i] * x[i];
  return 1.0f / std::sqrt(ss / n + eps);
}
static ffi::Error Fwd(float eps, F32 x, ffi::ResultBuffer<ffi::F32> y) {
  const int64_t n = x.dimensions().back(), rows = n == 0 ? 0 : x.element_count() / n;
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x.typed_data() + r * n;
    float* yr = y->typed_data() + r * n;
    const float s = Scale(xr, n, eps);
    for (int64_t i = 0; i < n; ++i) yr[i] = s * xr[i];
  }
  return ffi::Error::Success();
}
static ffi::Error Bwd(float eps, F32 x, F32 dy, ffi::ResultBuffer<ffi::F32> dx) {
  const int64_t n = x.dimensions().back(), rows = n == 0 ? 0 : x.element_count() / n;
  for (int64_t r = 0; r < rows; ++r) {  // dx = s dy - s^3 x mean(x dy)
    const float *xr = x.typed_data() + r * n, *dyr = dy.typed_data() + r * n;
    float* dxr = dx->typed_data() + r * n;
    const float s = Scale(xr, n, eps);
    float dot = 0.0f;
    for (int64_t i = 0; i < n; ++i) dot += xr[i] * dyr[i];
    for (int64_t i = 0; i < n; ++i) dxr[i] = s * dyr[i] - s * s * s * xr[i] * dot / n;
  }
  return ffi::Error::Success();
}
XLA_FFI_DEFINE_HANDLER_SYMBOL(RmsNormFwd, Fwd,
    ffi::Ffi::Bind().Attr<float>("eps").Arg<F32>().Ret<F32>());
XLA_FFI_DEFINE_HANDLER_SYMBOL(RmsNormBwd, Bwd,
    ffi::Ffi::Bind().Attr<float>("eps").Arg<F32>().Arg<F32>().Ret<F32>());
"""

gxx = shutil.which("g++")
if gxx is None:
    raise SystemExit("This example needs a C++ compiler: install g++ (Debian/Ubuntu: apt install g++).")
with tempfile.TemporaryDirectory() as tmp:
    src, lib_path = pathlib.Path(tmp, "rms_grad.cc"), pathlib.Path(tmp, "librms_grad.so")
    src.write_text(CPP)
    subprocess.run([gxx, "-std=c++17", "-O2", "-shared", "-fPIC", f"-I{jax.ffi.include_dir()}",
                    str(src), "-o", str(lib_path)], check=True, capture_output=True)
    lib = ctypes.cdll.LoadLibrary(str(lib_path))
    PREFIX = "kb_ffi_grad_" + pathlib.Path(tmp).name  # process-wide names: one per build
for name in ["RmsNormFwd", "RmsNormBwd"]:
    jax.ffi.register_ffi_target(f"{PREFIX}_{name}", jax.ffi.pycapsule(getattr(lib, name)))


@functools.partial(jax.custom_vjp, nondiff_argnums=(1,))
def rms_norm(x, eps=1e-5):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.ffi.ffi_call(f"{PREFIX}_RmsNormFwd", out, vmap_method="broadcast_all")(x, eps=np.float32(eps))


def rms_norm_fwd(x, eps):
    return rms_norm(x, eps), x  # save x for the backward pass


def rms_norm_bwd(eps, x, dy):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    dx = jax.ffi.ffi_call(f"{PREFIX}_RmsNormBwd", out, vmap_method="broadcast_all")(x, dy, eps=np.float32(eps))
    return (dx,)


rms_norm.defvjp(rms_norm_fwd, rms_norm_bwd)


def rms_norm_jnp(x, eps=1e-5):
    return x * jax.lax.rsqrt(jnp.mean(x**2, axis=-1, keepdims=True) + eps)


cpu = jax.devices("cpu")[0]  # both handlers are C++ for the CPU: the data must live there
x = jax.device_put(np.sin(np.arange(96, dtype=np.float32)).reshape(4, 3, 8), cpu)
w = jax.device_put(jnp.cos(jnp.arange(8.0)), cpu)  # weights, so that the gradient is not zero
loss = lambda f: (lambda x: jnp.sum(f(x) * w))
g_ffi = jax.jit(jax.grad(loss(rms_norm)))(x)
g_jnp = jax.jit(jax.grad(loss(rms_norm_jnp)))(x)
g_vmap = jax.vmap(jax.grad(loss(rms_norm)))(x)  # per-example gradients go through the C++ too
print("max |grad ffi - grad jnp|:", float(jnp.max(jnp.abs(g_ffi - g_jnp))))
assert jnp.allclose(g_ffi, g_jnp, atol=1e-5) and jnp.allclose(g_vmap, g_jnp, atol=1e-5)
