"""A tiled Pallas matmul compiled for the TPU (bf16 in, f32 VMEM accumulator): block sizes against XLA."""
# The timings this program prints differ from run to run and from machine to machine.
import time

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

ON_TPU = jax.default_backend() == "tpu"
print(jax.devices()[0].device_kind, "|", "compiled for the TPU" if ON_TPU else "interpreted: no TPU here")
N = 4096 if ON_TPU else 256  # interpret mode is slow: a small product elsewhere
# (bm, bk, bn): a's block is (bm, bk), b's (bk, bn), the output's (bm, bn); all TPU-legal.
BLOCKS = ([(512, 512, 512), (512, 1024, 512), (512, 512, 1024), (256, 256, 256), (128, 128, 128)]
          if ON_TPU else [(128, 128, 128), (128, 256, 128), (256, 128, 256)])
MiB = 2 ** 20
for chip in ("TPU_V5E", "TPU_V6E"):  # Pallas's own table of TPU generations, readable on any backend
    info = pltpu.get_tpu_info_for_chip(pltpu.ChipVersion[chip], 1)
    print(f"{chip}: MXU column size {info.mxu_column_size}, VMEM {info.vmem_capacity_bytes // MiB} MiB per TensorCore")
    assert info.mxu_column_size == {"TPU_V5E": 128, "TPU_V6E": 256}[chip]


def matmul_kernel(a_ref, b_ref, o_ref, acc_ref):
    @pl.when(pl.program_id(2) == 0)  # first k step: clear the accumulator
    def _():
        acc_ref[...] = jnp.zeros_like(acc_ref)

    acc_ref[...] += jnp.dot(a_ref[...], b_ref[...], preferred_element_type=jnp.float32)

    @pl.when(pl.program_id(2) == pl.num_programs(2) - 1)  # last k step: write the block once
    def _():
        o_ref[...] = acc_ref[...].astype(o_ref.dtype)


def matmul(a, b, bm, bk, bn, vmem_limit_bytes=None):
    m, k = a.shape
    n = b.shape[1]
    return pl.pallas_call(
        matmul_kernel, out_shape=jax.ShapeDtypeStruct((m, n), a.dtype),
        grid=(m // bm, n // bn, k // bk),
        in_specs=[pl.BlockSpec((bm, bk), lambda i, j, kk: (i, kk)),
                  pl.BlockSpec((bk, bn), lambda i, j, kk: (kk, j))],
        out_specs=pl.BlockSpec((bm, bn), lambda i, j, kk: (i, j)),
        scratch_shapes=[pltpu.VMEM((bm, bn), jnp.float32)],  # the f32 accumulator
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel", "arbitrary"),
                                             vmem_limit_bytes=vmem_limit_bytes),
        interpret=not ON_TPU)(a, b)


def intensity(bm, bk, bn):  # flops per byte of input blocks loaded: 2*bm*bk*bn / (2*(bm*bk + bk*bn))
    return bm * bn / (bm + bn)


def vmem_budget(bm, bk, bn):  # double-buffered bf16 inputs and output, plus the f32 accumulator
    return 2 * (bm * bk + bk * bn) * 2 + 2 * bm * bn * 2 + bm * bn * 4


def median_time(f, *args, reps=20):
    f(*args).block_until_ready()  # compile and warm up
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        f(*args).block_until_ready()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


k1, k2 = jax.random.split(jax.random.key(0))
a = jax.random.normal(k1, (N, N), jnp.bfloat16)
b = jax.random.normal(k2, (N, N), jnp.bfloat16)
reference = jnp.dot(a, b, preferred_element_type=jnp.float32)  # bf16 products are exact in f32
scale = float(jnp.abs(reference).max())
xla = jax.jit(lambda a, b: a @ b)
t_xla = median_time(xla, a, b)
print(f"{N}^3 bf16, XLA a @ b: {t_xla * 1e3:.2f} ms, "
      f"max error {float(jnp.abs(xla(a, b) - reference).max()) / scale:.1e} (relative to max |a @ b|)")


def report(bm, bk, bn, limit=None):
    f = jax.jit(lambda a, b: matmul(a, b, bm, bk, bn, limit))
    t = median_time(f, a, b)
    error = float(jnp.abs(f(a, b).astype(jnp.float32) - reference).max()) / scale
    print(f"  ({bm:4d}, {bk:4d}, {bn:4d}) VMEM {vmem_budget(bm, bk, bn) / MiB:5.1f} MiB,"
          f" {intensity(bm, bk, bn):3.0f} flop/byte: {t * 1e3:7.2f} ms,"
          f" x{t / t_xla:5.2f} XLA, max error {error:.1e}")
    assert error < 1e-2, error  # one bf16 rounding of the output (2**-8 = 3.9e-3), nothing more
    return t


if ON_TPU:
    info = pltpu.get_tpu_info()  # this chip, per TensorCore
    print(f"compute/bandwidth balance: {info.bf16_ops_per_second / info.mem_bw_bytes_per_second:.0f} flop/byte")
print("Pallas blocks (bm, bk, bn), grid (m/bm, n/bn, k/bk):")
best = min(report(*block) for block in BLOCKS)
print(f"best block: x{best / t_xla:.2f} XLA's time")
if ON_TPU:
    assert best < 1.10 * t_xla  # measured 1.05 on a v5e

    # (1024, 1024, 1024): 16 MiB of blocks, over the default 16 MiB scoped VMEM limit.
    f = jax.jit(lambda a, b: matmul(a, b, 1024, 1024, 1024))
    try:
        f.lower(a, b).compile()
        raise AssertionError("expected the (1024, 1024, 1024) block to overflow the scoped VMEM")
    except AssertionError:
        raise
    except Exception as err:  # JaxRuntimeError: RESOURCE_EXHAUSTED ... CompileTimeScopedVmemOom
        message = str(err)
    lines = [line.strip() for line in message.splitlines() if "E1001" in line or "Scoped allocation" in line]
    print("(1024, 1024, 1024), default limit:", *(line[:200] for line in lines or message.splitlines()[:1]),
          sep="\n  ")
    assert "RESOURCE_EXHAUSTED" in message
    print("(1024, 1024, 1024), vmem_limit_bytes=64 MiB:")
    try:
        report(1024, 1024, 1024, limit=64 * MiB)  # prints its line if it compiles
        print("  compiles under the raised limit")
    except AssertionError:
        raise
    except Exception as err:
        print("  fails too:", str(err).splitlines()[0][:200])
