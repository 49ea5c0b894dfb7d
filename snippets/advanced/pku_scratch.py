"""scratch_shapes: an accumulator that sums rows over a grid axis, in interpret mode."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import mosaic_gpu as plgpu
from jax.experimental.pallas import tpu as pltpu

ROWS, COLS, BLOCK = 8, 512, 128  # (8, 128) blocks: TPU-legal


def row_sum_kernel(x_ref, o_ref, acc_ref):
    k = pl.program_id(0)  # the column block: the reduction axis

    @pl.when(k == 0)
    def _():
        acc_ref[...] = jnp.zeros_like(acc_ref)  # scratch starts uninitialized (NaN in interpret mode)

    acc_ref[...] += jnp.sum(x_ref[...], axis=1, keepdims=True)

    @pl.when(k == pl.num_programs(0) - 1)
    def _():
        o_ref[...] = acc_ref[...]  # write the output once, after the last block


def row_sum(x, scratch, interpret):
    return pl.pallas_call(
        row_sum_kernel, out_shape=jax.ShapeDtypeStruct((ROWS, 1), jnp.float32),
        grid=(COLS // BLOCK,),
        in_specs=[pl.BlockSpec((ROWS, BLOCK), lambda k: (0, k))],
        out_specs=pl.BlockSpec((ROWS, 1), lambda k: (0, 0)),  # the same block for every k
        scratch_shapes=[scratch],  # kernel-private, not an output
        compiler_params=pltpu.CompilerParams(dimension_semantics=("arbitrary",)),
        interpret=interpret)(x)


x = jnp.arange(ROWS * COLS, dtype=jnp.float32).reshape(ROWS, COLS)
expected = np.asarray(x).sum(axis=1, keepdims=True)
runs = [("pltpu.VMEM, interpret=True", pltpu.VMEM((ROWS, 1), jnp.float32), True),
        ("pltpu.VMEM, pltpu.InterpretParams()", pltpu.VMEM((ROWS, 1), jnp.float32),
         pltpu.InterpretParams()),  # the TPU interpret mode: simulates the TPU's memory spaces
        ("plgpu.SMEM, interpret=True", plgpu.SMEM((ROWS, 1), jnp.float32), True)]
for name, scratch, mode in runs:
    out = row_sum(x, scratch, mode)
    print(f"{name:36s} grid={(COLS // BLOCK,)} row sums: {np.asarray(out)[:3, 0]}")
    assert np.array_equal(np.asarray(out), expected)
