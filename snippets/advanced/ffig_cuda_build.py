"""A CUDA FFI handler on XLA's stream: compiled with nvcc when present, run only on a CUDA GPU."""
import ctypes, pathlib, shutil, subprocess, tempfile

import jax
import jax.numpy as jnp
import numpy as np

CU = r"""
#include <cstdint>
#include <cuda_runtime.h>
#include "xla/ffi/api/ffi.h"
namespace ffi = xla::ffi;

__global__ void ScaleKernel(const float* x, float* y, float a, int64_t n) {
  const int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}

// The buffers hold device pointers; the kernel goes on the stream XLA hands us.
static ffi::Error ScaleImpl(cudaStream_t stream, float a, ffi::Buffer<ffi::F32> x,
                            ffi::ResultBuffer<ffi::F32> y) {
  const int64_t n = x.element_count();
  if (n == 0) return ffi::Error::Success();  // a launch with 0 blocks is an invalid configuration
  const int threads = 256;
  const int64_t blocks = (n + threads - 1) / threads;
  ScaleKernel<<<blocks, threads, 0, stream>>>(x.typed_data(), y->typed_data(), a, n);
  const cudaError_t err = cudaGetLastError();  // launch errors only: no stream query, no sync
  if (err != cudaSuccess) return ffi::Error::Internal(cudaGetErrorString(err));
  return ffi::Error::Success();
}

// kCmdBufferCompatible: only launches on the given stream, allocates nothing,
// so XLA may capture the call into a CUDA graph (a command buffer).
XLA_FFI_DEFINE_HANDLER_SYMBOL(Scale, ScaleImpl,
    ffi::Ffi::Bind()
        .Ctx<ffi::PlatformStream<cudaStream_t>>()
        .Attr<float>("a")
        .Arg<ffi::Buffer<ffi::F32>>()
        .Ret<ffi::Buffer<ffi::F32>>(),
    {ffi::Traits::kCmdBufferCompatible});
"""


def main() -> None:
    """Build the handler with nvcc; run it only where JAX's default backend is a GPU."""
    nvcc = shutil.which("nvcc")
    on_gpu = jax.default_backend() == "gpu"
    print("nvcc on PATH:", nvcc is not None, "| JAX default backend:", jax.default_backend())
    if nvcc is None:
        print("nvcc is not on PATH (install the CUDA toolkit); the handler's key lines:")
        for line in CU.splitlines():
            if any(k in line for k in ("PlatformStream", "<<<", "kCmdBufferCompatible")):
                print("   ", line.strip())
        return

    with tempfile.TemporaryDirectory() as tmp:
        src, lib_path = pathlib.Path(tmp, "scale.cu"), pathlib.Path(tmp, "libscale.so")
        src.write_text(CU)
        cmd = [nvcc, "-x", "cu", "-std=c++17", "--expt-relaxed-constexpr", "-O2", "-shared",
               "-Xcompiler", "-fPIC", f"-I{jax.ffi.include_dir()}", str(src), "-o", str(lib_path)]
        print("build: nvcc", " ".join(cmd[1:-4]), "-I<jax.ffi.include_dir()> scale.cu -o libscale.so")
        build = subprocess.run(cmd, capture_output=True, text=True)
        if build.returncode != 0:  # show nvcc's own message, not only its exit status
            raise SystemExit(f"nvcc failed ({build.returncode}):\n{build.stderr[-2000:]}")
        assert lib_path.stat().st_size > 0
        print(f"built {lib_path.name}: {lib_path.stat().st_size // 1024} KiB")
        lib = ctypes.cdll.LoadLibrary(str(lib_path))  # nvcc links the CUDA runtime statically by default
        assert hasattr(lib, "Scale")  # the extern "C" handler symbol exists
        TARGET = "kb_ffig_scale_" + pathlib.Path(tmp).name

    if not on_gpu:
        print("compiled, not run: no GPU here, and the handler is registered for platform='CUDA'")
        return

    jax.ffi.register_ffi_target(TARGET, jax.ffi.pycapsule(lib.Scale), platform="CUDA")
    x = jnp.arange(1000, dtype=jnp.float32)  # on the default device, the GPU
    scale = jax.ffi.ffi_call(TARGET, jax.ShapeDtypeStruct(x.shape, x.dtype), vmap_method="broadcast_all")
    y = jax.jit(lambda x: scale(x, a=np.float32(3.0)))(x)
    print("ran on", y.devices(), "y[:4] =", np.asarray(y[:4]))
    assert jnp.array_equal(y, 3.0 * x)


main()
