"""Pallas: K as a third grid axis, accumulating into the output block with pl.when."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl

M, N, K, bm, bn, bk = 64, 96, 128, 32, 32, 32


def matmul_kernel(a_ref, b_ref, c_ref):
    @pl.when(pl.program_id(2) == 0)  # first K step of this output tile: start from zero
    def _():
        c_ref[...] = jnp.zeros_like(c_ref)

    # The same output block is revisited for every k: this relies on the K axis running in order.
    c_ref[...] += jnp.dot(a_ref[...], b_ref[...], preferred_element_type=jnp.float32)


rng = np.random.default_rng(0)
a_np = rng.normal(size=(M, K)).astype(np.float32)
b_np = rng.normal(size=(K, N)).astype(np.float32)
matmul = pl.pallas_call(
    matmul_kernel,
    out_shape=jax.ShapeDtypeStruct((M, N), jnp.float32),
    grid=(M // bm, N // bn, K // bk),  # K innermost: consecutive steps hit the same c block
    in_specs=[pl.BlockSpec((bm, bk), lambda i, j, k: (i, k)),
              pl.BlockSpec((bk, bn), lambda i, j, k: (k, j))],
    out_specs=pl.BlockSpec((bm, bn), lambda i, j, k: (i, j)),  # ignores k
    interpret=True,
)
with jax.default_matmul_precision("float32"):  # no TF32 on a GPU: compared with float64 below
    c = matmul(jnp.asarray(a_np), jnp.asarray(b_np))
numpy_ref = a_np.astype(np.float64) @ b_np.astype(np.float64)
print("grid:", (M // bm, N // bn, K // bk), "blocks:", (bm, bk), (bk, bn), "->", (bm, bn))
print(f"max |pallas - float64 NumPy|: {np.abs(np.asarray(c) - numpy_ref).max():.1e}")
assert np.allclose(np.asarray(c), numpy_ref, atol=1e-3, rtol=1e-4)
