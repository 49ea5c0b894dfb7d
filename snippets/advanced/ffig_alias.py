"""In-place FFI calls: input_output_aliases with donation, and has_side_effect for calls whose result is unused."""
import ctypes, pathlib, shutil, subprocess, tempfile

import jax
import jax.numpy as jnp
import numpy as np

CPP = r"""
#include <cstdint>
#include "xla/ffi/api/ffi.h"
namespace ffi = xla::ffi;

static int64_t calls = 0;  // how many times XLA ran a handler of this library
extern "C" int64_t kb_calls() { return calls; }

// y = x + 1. With input_output_aliases={0: 0}, y is x's buffer: the loop updates in place.
static ffi::Error AddOneImpl(ffi::Buffer<ffi::F32> x, ffi::ResultBuffer<ffi::F32> y,
                             ffi::ResultBuffer<ffi::S32> same) {
  ++calls;
  const float* in = x.typed_data();
  float* out = y->typed_data();
  for (int64_t i = 0; i < x.element_count(); ++i) out[i] = in[i] + 1.0f;
  same->typed_data()[0] = static_cast<int32_t>(static_cast<const void*>(in) == out);
  return ffi::Error::Success();
}
XLA_FFI_DEFINE_HANDLER_SYMBOL(AddOne, AddOneImpl, ffi::Ffi::Bind()
    .Arg<ffi::Buffer<ffi::F32>>().Ret<ffi::Buffer<ffi::F32>>().Ret<ffi::Buffer<ffi::S32>>());
"""

gxx = shutil.which("g++")
if gxx is None:
    raise SystemExit("This example needs a C++ compiler: install g++ (Debian/Ubuntu: apt install g++).")
with tempfile.TemporaryDirectory() as tmp:
    src, lib_path = pathlib.Path(tmp, "add_one.cc"), pathlib.Path(tmp, "libadd_one.so")
    src.write_text(CPP)
    subprocess.run([gxx, "-std=c++17", "-O2", "-shared", "-fPIC", f"-I{jax.ffi.include_dir()}",
                    str(src), "-o", str(lib_path)], check=True, capture_output=True)
    lib = ctypes.cdll.LoadLibrary(str(lib_path))
    TARGET = "kb_ffig_add_one_" + pathlib.Path(tmp).name  # process-wide names: one per build
lib.kb_calls.restype = ctypes.c_int64
jax.ffi.register_ffi_target(TARGET, jax.ffi.pycapsule(lib.AddOne), platform="cpu")
cpu = jax.devices("cpu")[0]  # a CPU handler: its data must live on the CPU


def add_one(x, **options):
    out = (jax.ShapeDtypeStruct(x.shape, x.dtype), jax.ShapeDtypeStruct((), jnp.int32))
    return jax.ffi.ffi_call(TARGET, out, **options)(x)


# 1. Aliasing: output 0 reuses input 0's buffer. Donating x lets XLA hand over the caller's buffer.
for donate in (False, True):
    f = jax.jit(lambda x: add_one(x, input_output_aliases={0: 0}), donate_argnums=(0,) if donate else ())
    x = jax.device_put(np.arange(4, dtype=np.float32), cpu)
    hlo = f.lower(x).compile().as_text()
    y, same = f(x)
    print(f"donate={donate}: y={np.asarray(y)}, handler wrote into its input: {bool(same)}, "
          f"x deleted: {x.is_deleted()}, copy in compiled HLO: {' copy(' in hlo}")
    assert bool(same) and jnp.array_equal(y, jnp.arange(4.0) + 1)
    assert x.is_deleted() == donate and (" copy(" in hlo) == (not donate)
    assert "output_to_operand_aliasing" in hlo

# Without the alias the handler gets a fresh output buffer.
_, same = jax.jit(add_one)(jax.device_put(np.zeros(4, np.float32), cpu))
print("no alias: handler wrote into its input:", bool(same))
assert not bool(same)

# 2. has_side_effect: a call whose results are unused is dead code, unless it is marked.
x = jax.device_put(np.zeros(4, np.float32), cpu)
for effect in (False, True):
    before = lib.kb_calls()
    jax.block_until_ready(jax.jit(lambda x: (add_one(x, has_side_effect=effect), x * 2)[1])(x))
    ran = lib.kb_calls() - before
    print(f"has_side_effect={effect}: result unused, handler ran {ran} time(s)")
    assert ran == int(effect)
