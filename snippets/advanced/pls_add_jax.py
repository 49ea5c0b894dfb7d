"""Pallas: the same vector add with pl.pallas_call, a grid and BlockSpecs, in interpret mode."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl


def add_kernel(x_ref, y_ref, o_ref):
    # The refs hold this program's block only: no offsets, no mask.
    o_ref[...] = x_ref[...] + y_ref[...]


n, block = 1000, 256
x_np = np.linspace(0.0, 1.0, n, dtype=np.float32)
y_np = np.cos(np.arange(n, dtype=np.float32))
x, y = jnp.asarray(x_np), jnp.asarray(y_np)
spec = pl.BlockSpec((block,), lambda i: (i,))  # program i gets elements [i*256, (i+1)*256)
add = pl.pallas_call(
    add_kernel,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid=(pl.cdiv(n, block),),  # 4 programs; the last block is padded, its extra writes dropped
    in_specs=[spec, spec],
    out_specs=spec,
    interpret=True,  # emulate the kernel with ordinary XLA operations: runs on the CPU
)
out = add(x, y)
print("grid:", (pl.cdiv(n, block),), "first values:", out[:3].tolist())
assert out.shape == (n,)
assert np.array_equal(np.asarray(out), x_np + y_np)  # the same float32 additions: exactly equal
