"""Pallas: the same tiled matmul, a 2-D grid of output tiles and a loop over K in the kernel."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl

M, N, K, bm, bn, bk = 64, 96, 128, 32, 32, 32


def matmul_kernel(a_ref, b_ref, c_ref):
    # a_ref is the (bm, K) row panel and b_ref the (K, bn) column panel of this output tile.
    def step(k, acc):
        a = a_ref[:, pl.ds(k * bk, bk)]  # pl.ds(start, size): a slice of the ref
        b = b_ref[pl.ds(k * bk, bk), :]
        return acc + jnp.dot(a, b, preferred_element_type=jnp.float32)

    acc = jax.lax.fori_loop(0, K // bk, step, jnp.zeros((bm, bn), jnp.float32))
    c_ref[...] = acc


rng = np.random.default_rng(0)
a_np = rng.normal(size=(M, K)).astype(np.float32)
b_np = rng.normal(size=(K, N)).astype(np.float32)
matmul = pl.pallas_call(
    matmul_kernel,
    out_shape=jax.ShapeDtypeStruct((M, N), jnp.float32),
    grid=(M // bm, N // bn),
    in_specs=[pl.BlockSpec((bm, K), lambda i, j: (i, 0)),  # row panel i
              pl.BlockSpec((K, bn), lambda i, j: (0, j))],  # column panel j
    out_specs=pl.BlockSpec((bm, bn), lambda i, j: (i, j)),
    interpret=True,
)
with jax.default_matmul_precision("float32"):  # no TF32 on a GPU: compared with float64 below
    c = matmul(jnp.asarray(a_np), jnp.asarray(b_np))
numpy_ref = a_np.astype(np.float64) @ b_np.astype(np.float64)
print("grid:", (M // bm, N // bn), "K steps per program:", K // bk)
print(f"max |pallas - float64 NumPy|: {np.abs(np.asarray(c) - numpy_ref).max():.1e}")
assert np.allclose(np.asarray(c), numpy_ref, atol=1e-3, rtol=1e-4)
