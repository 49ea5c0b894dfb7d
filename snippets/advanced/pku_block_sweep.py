"""No autotuner in Pallas: sweep block shapes yourself, checking each result."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl

M, N, K = 256, 256, 128


def matmul_kernel(a_ref, b_ref, c_ref):
    c_ref[...] = jnp.dot(a_ref[...], b_ref[...], preferred_element_type=jnp.float32)


def matmul(a, b, bm, bn):
    return pl.pallas_call(
        matmul_kernel, out_shape=jax.ShapeDtypeStruct((M, N), jnp.float32),
        grid=(M // bm, N // bn),
        in_specs=[pl.BlockSpec((bm, K), lambda i, j: (i, 0)),
                  pl.BlockSpec((K, bn), lambda i, j: (0, j))],
        out_specs=pl.BlockSpec((bm, bn), lambda i, j: (i, j)),
        interpret=True)(a, b)


k1, k2 = jax.random.split(jax.random.key(0))
a = jax.random.normal(k1, (M, K), jnp.float32)
b = jax.random.normal(k2, (K, N), jnp.float32)
with jax.default_matmul_precision("float32"):  # no TF32 or bfloat16 passes: compare tightly
    reference = a @ b
    for bm, bn in [(8, 128), (64, 128), (128, 256), (256, 256)]:  # all TPU-legal
        c = matmul(a, b, bm, bn)
        error = float(jnp.abs(c - reference).max())
        print(f"blocks ({bm:3d}, {bn:3d}) -> grid {(M // bm, N // bn)}: max error {error:.1e}")
        assert np.allclose(c, reference, atol=1e-4)  # every candidate is correct before timing
