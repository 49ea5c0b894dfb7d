"""Exporting a function that makes an FFI call: the safety check, the override, and what the artifact needs."""
import ctypes, pathlib, shutil, subprocess, tempfile

import jax
import jax.numpy as jnp
import numpy as np
from jax import export

CPP = r"""
#include <cstdint>
#include "xla/ffi/api/ffi.h"
namespace ffi = xla::ffi;

static ffi::Error TwiceImpl(ffi::Buffer<ffi::F32> x, ffi::ResultBuffer<ffi::F32> y) {
  for (int64_t i = 0; i < x.element_count(); ++i) y->typed_data()[i] = 2.0f * x.typed_data()[i];
  return ffi::Error::Success();
}
XLA_FFI_DEFINE_HANDLER_SYMBOL(Twice, TwiceImpl,
    ffi::Ffi::Bind().Arg<ffi::Buffer<ffi::F32>>().Ret<ffi::Buffer<ffi::F32>>());
"""

gxx = shutil.which("g++")
if gxx is None:
    raise SystemExit("This example needs a C++ compiler: install g++ (Debian/Ubuntu: apt install g++).")
with tempfile.TemporaryDirectory() as tmp:
    src, lib_path = pathlib.Path(tmp, "twice.cc"), pathlib.Path(tmp, "libtwice.so")
    src.write_text(CPP)
    subprocess.run([gxx, "-std=c++17", "-O2", "-shared", "-fPIC", f"-I{jax.ffi.include_dir()}",
                    str(src), "-o", str(lib_path)], check=True, capture_output=True)
    lib = ctypes.cdll.LoadLibrary(str(lib_path))
    TARGET = "kb_ffig_twice_" + pathlib.Path(tmp).name  # process-wide names: one per build
jax.ffi.register_ffi_target(TARGET, jax.ffi.pycapsule(lib.Twice), platform="cpu")


def twice_plus_one(x, target=TARGET):
    return jax.ffi.ffi_call(target, jax.ShapeDtypeStruct(x.shape, x.dtype))(x) + 1.0


spec = jax.ShapeDtypeStruct((4,), jnp.float32)
# 1. By default, export refuses custom calls that are not on JAX's list of stable targets.
try:
    export.export(jax.jit(twice_plus_one), platforms=["cpu"])(spec)
except ValueError as e:
    first = str(e).splitlines()[0].replace(TARGET, "<target>")
    print("default:", type(e).__name__ + ":", first)
    assert "Cannot serialize code with custom calls whose targets have no compatibility guarantees" in first
else:
    raise AssertionError("export should refuse an unknown custom call target")

# 2. Naming the target in disabled_checks lets it through: the artifact now refers to it by name.
exp = export.export(jax.jit(twice_plus_one), platforms=["cpu"],
                    disabled_checks=[export.DisabledSafetyCheck.custom_call(TARGET)])(spec)
blob = exp.serialize()
print(f"serialized: {len(blob)} bytes; target name in the module: {TARGET in exp.mlir_module()}")
assert TARGET in exp.mlir_module() and TARGET.encode() in bytes(blob)

# 3. Where it is deserialized, the same name must be registered (here it is: same process).
x = jax.device_put(np.arange(4, dtype=np.float32), jax.devices("cpu")[0])  # a CPU handler
y = export.deserialize(blob).call(x)
print("deserialized and called:", np.asarray(y))
assert jnp.array_equal(y, 2 * x + 1)

# A process that never registered the target can load the artifact but not run it.
MISSING = "kb_ffig_never_registered"
exp = export.export(jax.jit(lambda x: twice_plus_one(x, MISSING)), platforms=["cpu"],
                    disabled_checks=[export.DisabledSafetyCheck.custom_call(MISSING)])(spec)
restored = export.deserialize(exp.serialize())
try:
    restored.call(x)
except jax.errors.JaxRuntimeError as e:
    message = next(line for line in str(e).splitlines() if MISSING in line)
    print("target not registered:", type(e).__name__ + ":", message.strip())
    assert "No FFI handler registered for" in message
else:
    raise AssertionError("calling an unregistered target should fail")
