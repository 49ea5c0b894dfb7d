"""An FFI call on a sharded array: XLA gathers it by default; shard_map runs the handler on each shard."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import ctypes, pathlib, shutil, subprocess, tempfile

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental.xla_metadata import set_xla_metadata
from jax.sharding import NamedSharding, PartitionSpec as P

CPP = r"""
#include <cstdint>
#include "xla/ffi/api/ffi.h"
namespace ffi = xla::ffi;

// Subtracts each row's mean: rows are independent, so any split into whole rows is correct.
static ffi::Error CenterImpl(ffi::Buffer<ffi::F32> x, ffi::ResultBuffer<ffi::F32> y) {
  const int64_t n = x.dimensions().back(), rows = n == 0 ? 0 : x.element_count() / n;
  for (int64_t r = 0; r < rows; ++r) {
    const float* in = x.typed_data() + r * n;
    float* out = y->typed_data() + r * n;
    float sum = 0.0f;
    for (int64_t i = 0; i < n; ++i) sum += in[i];
    for (int64_t i = 0; i < n; ++i) out[i] = in[i] - sum / n;
  }
  return ffi::Error::Success();
}
XLA_FFI_DEFINE_HANDLER_SYMBOL(Center, CenterImpl,
    ffi::Ffi::Bind().Arg<ffi::Buffer<ffi::F32>>().Ret<ffi::Buffer<ffi::F32>>());
"""

gxx = shutil.which("g++")
if gxx is None:
    raise SystemExit("This example needs a C++ compiler: install g++ (Debian/Ubuntu: apt install g++).")
with tempfile.TemporaryDirectory() as tmp:
    src, lib_path = pathlib.Path(tmp, "center.cc"), pathlib.Path(tmp, "libcenter.so")
    src.write_text(CPP)
    subprocess.run([gxx, "-std=c++17", "-O2", "-shared", "-fPIC", f"-I{jax.ffi.include_dir()}",
                    str(src), "-o", str(lib_path)], check=True, capture_output=True)
    lib = ctypes.cdll.LoadLibrary(str(lib_path))
    TARGET = "kb_ffig_center_" + pathlib.Path(tmp).name  # process-wide names: one per build
jax.ffi.register_ffi_target(TARGET, jax.ffi.pycapsule(lib.Center), platform="cpu")

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices ...
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
if devices[0].platform != "cpu":  # ... but this handler is C++ for the CPU, so the mesh must be too
    devices = jax.devices("cpu")[:8]
print(f"{len(devices)} devices: {devices[0].platform}")
jax.config.update("jax_default_device", devices[0])  # the unsharded reference runs on a CPU too
mesh = jax.make_mesh((len(devices),), ("x",), devices=devices)
block = f"f32[{16 // len(devices)},4]"  # the rows of one device: 2 of 16 on 8 devices


def center(x):
    return jax.ffi.ffi_call(TARGET, jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


x_host = np.arange(16 * 4, dtype=np.float32).reshape(16, 4) ** 2
expected = center(jnp.asarray(x_host))  # one device, the whole array
x = jax.device_put(x_host, NamedSharding(mesh, P("x")))  # whole rows on each device

# 1. Default: XLA cannot see inside the call, so it gathers the whole array onto every device.
plain = jax.jit(center)
hlo = plain.lower(x).compile().as_text()
shape = next(line for line in hlo.splitlines() if "custom-call(" in line).split(" = ")[1].split("{")[0]
print("plain jit: all-gather in HLO:", "all-gather" in hlo, "| shape the handler sees:", shape)
assert "all-gather" in hlo and shape == "f32[16,4]"
assert jnp.allclose(plain(x), expected)

# 2. shard_map: each device runs the handler on its own block of rows; no communication.
per_shard = jax.jit(jax.shard_map(center, mesh=mesh, in_specs=P("x"), out_specs=P("x")))
hlo = per_shard.lower(x).compile().as_text()
shape = next(line for line in hlo.splitlines() if "custom-call(" in line).split(" = ")[1].split("{")[0]
y = per_shard(x)
print("shard_map: all-gather in HLO:", "all-gather" in hlo, "| shape the handler sees:", shape)
print("output sharding:", y.sharding.spec, "| max |shard_map - unsharded|:", float(jnp.max(jnp.abs(y - expected))))
assert "all-gather" not in hlo and shape == block
assert y.sharding.is_equivalent_to(x.sharding, 2) and jnp.allclose(y, expected)

# 3. Batch partitioning by XLA: the name is registered as batch-partitionable, and each call says
#    how many leading axes are batch axes (a num_batch_dims frontend attribute on the custom call).
jax.ffi.register_ffi_target_as_batch_partitionable(TARGET)


def center_batched(x):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype, sharding=jax.typeof(x).sharding)  # keep the rows split
    with set_xla_metadata(num_batch_dims="1"):
        return jax.ffi.ffi_call(TARGET, out)(x)


batched = jax.jit(center_batched)
assert 'num_batch_dims = "1"' in batched.lower(x).as_text()
hlo = batched.lower(x).compile().as_text()
shape = next(line for line in hlo.splitlines() if "custom-call(" in line).split(" = ")[1].split("{")[0]
y = batched(x)
print("batch-partitionable: all-gather in HLO:", "all-gather" in hlo, "| shape the handler sees:", shape)
assert "all-gather" not in hlo and shape == block
assert y.sharding.is_equivalent_to(x.sharding, 2) and jnp.allclose(y, expected)
