"""Blocks that overhang the array: interpret mode pads them with NaN, so mask like in Triton."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl

rows, cols, block_cols = 8, 100, 128  # a 128-wide block over 100 columns (GPU-friendly power of 2)


def softmax_kernel(x_ref, o_ref, *, masked):
    x = x_ref[...]
    if masked:  # a Python flag: two different kernels are traced
        col = jax.lax.broadcasted_iota(jnp.int32, x.shape, 1)
        x = jnp.where(col < cols, x, -jnp.inf)  # like Triton's mask with other=-inf
    e = jnp.exp(x - jnp.max(x, axis=1, keepdims=True))
    o_ref[...] = e / jnp.sum(e, axis=1, keepdims=True)


def softmax(x, masked):
    spec = pl.BlockSpec((rows, block_cols), lambda i: (0, 0))
    kernel = functools.partial(softmax_kernel, masked=masked)
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(1,),
                          in_specs=[spec], out_specs=spec, interpret=True)(x)


x = jnp.asarray(np.random.default_rng(0).normal(size=(rows, cols)).astype(np.float32))
unmasked, masked = softmax(x, masked=False), softmax(x, masked=True)
print("unmasked: NaN in every row:", bool(jnp.isnan(unmasked).any(axis=1).all()))
print(f"masked: max |pallas - jax.nn.softmax| = {jnp.max(jnp.abs(masked - jax.nn.softmax(x))):.1e}")
assert jnp.isnan(unmasked).any(axis=1).all()  # the 28 padded columns were NaN and poisoned each row
assert jnp.allclose(masked, jax.nn.softmax(x, axis=1), atol=1e-6, rtol=1e-5)
