"""A fused row-softmax Pallas kernel compiled for the TPU, against jax.nn.softmax and the chip's HBM bandwidth."""
# The timings this program prints differ from run to run and from machine to machine.
import time

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

ON_TPU = jax.default_backend() == "tpu"
print(jax.devices()[0].device_kind, "|", "compiled for the TPU" if ON_TPU else "interpreted: no TPU here")
# (rows, columns, br): one block of br full rows per grid step. Small shapes where the kernel is interpreted.
SHAPES = [(8192, 1024, 256), (8192, 4096, 128)] if ON_TPU else [(512, 1024, 256), (256, 4096, 128)]
if ON_TPU:
    hbm = pltpu.get_tpu_info().mem_bw_bytes_per_second  # per TensorCore; a v5e chip has one
    print(f"HBM bandwidth (pltpu.get_tpu_info): {hbm / 1e9:.0f} GB/s")


def softmax_kernel(x_ref, o_ref):  # the whole row is in the block: max, exp, sum, divide in VMEM
    x = x_ref[...]
    e = jnp.exp(x - jnp.max(x, axis=1, keepdims=True))
    o_ref[...] = e / jnp.sum(e, axis=1, keepdims=True)


def softmax(x, br):
    rows, cols = x.shape
    spec = pl.BlockSpec((br, cols), lambda i: (i, 0))  # br % 8 == 0, last dim = the full row
    return pl.pallas_call(
        softmax_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(rows // br,),
        in_specs=[spec], out_specs=spec,
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),  # rows are independent
        interpret=not ON_TPU)(x)


def median_time(f, *args, reps=20):
    f(*args).block_until_ready()  # compile and warm up
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        f(*args).block_until_ready()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


xla = jax.jit(jax.nn.softmax)
for rows, cols, br in SHAPES:
    x = jax.random.normal(jax.random.key(0), (rows, cols), jnp.float32)
    pallas = jax.jit(lambda x: softmax(x, br))
    p, ref = pallas(x), xla(x)
    rel = float(jnp.max(jnp.abs(p - ref) / ref))
    t_p, t_x = median_time(pallas, x), median_time(xla, x)
    moved = 2 * x.size * 4  # read x once, write the result once (float32)
    line = (f"({rows}, {cols}) br={br}: Pallas {t_p * 1e6:6.0f} us, XLA {t_x * 1e6:6.0f} us,"
            f" Pallas/XLA {t_p / t_x:.2f}, max rel error {rel:.1e}, Pallas {moved / t_p / 1e9:.0f} GB/s")
    print(line + (f" = {moved / t_p / hbm:.0%} of HBM" if ON_TPU else ""))
    # Compiled, Mosaic's exp and divide are not XLA's: allow a few float32 ulps more.
    assert rel < (1e-4 if ON_TPU else 1e-6), rel
