"""A 2-D grid: each program writes its own (i, j) into the output block its BlockSpec selects."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl


def ids_kernel(o_ref):
    i, j = pl.program_id(0), pl.program_id(1)  # this program's position in the grid
    o_ref[...] = jnp.full(o_ref.shape, 10 * i + j, dtype=o_ref.dtype)


shape, block, grid = (6, 8), (2, 4), (3, 2)
out = pl.pallas_call(
    ids_kernel,
    out_shape=jax.ShapeDtypeStruct(shape, jnp.int32),
    grid=grid,  # 3 x 2 programs, like two nested for loops
    out_specs=pl.BlockSpec(block, lambda i, j: (i, j)),  # block indices, not element offsets
    interpret=True,
)()
print(out)

# The BlockSpec rule: program (i, j) owns rows 2i:2i+2 and columns 4j:4j+4.
expected = np.zeros(shape, np.int32)
for i in range(grid[0]):
    for j in range(grid[1]):
        expected[2 * i:2 * i + 2, 4 * j:4 * j + 4] = 10 * i + j
assert np.array_equal(np.asarray(out), expected)
