"""jax.vmap of a pallas_call: the batch becomes a new leading grid axis."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl


def add_row_id_kernel(x_ref, o_ref):
    # pl.program_id(0) is this kernel's own row-block axis, also after vmap adds a grid axis.
    o_ref[...] = x_ref[...] + 100.0 * pl.program_id(0).astype(jnp.float32)


spec = pl.BlockSpec((8, 128), lambda i: (i, 0))  # 8 rows per program: a TPU-legal block
kernel = pl.pallas_call(add_row_id_kernel, out_shape=jax.ShapeDtypeStruct((16, 128), jnp.float32),
                        grid=(2,), in_specs=[spec], out_specs=spec, interpret=True)

xs = jnp.arange(3 * 16 * 128, dtype=jnp.float32).reshape(3, 16, 128)  # a batch of 3 inputs
for name, f, arg in [("one call", kernel, xs[0]), ("vmap", jax.vmap(kernel), xs)]:
    grid_mapping = jax.make_jaxpr(f)(arg).eqns[0].params["grid_mapping"]
    print(f"{name:8s} grid={grid_mapping.grid}",
          "blocks:", [bm.block_shape for bm in grid_mapping.block_mappings])
assert jax.make_jaxpr(kernel)(xs[0]).eqns[0].params["grid_mapping"].grid == (2,)
assert jax.make_jaxpr(jax.vmap(kernel))(xs).eqns[0].params["grid_mapping"].grid == (3, 2)

batched = jax.vmap(kernel)(xs)
looped = jnp.stack([kernel(x) for x in xs])
expected = np.asarray(xs) + 100.0 * np.repeat(np.arange(2, dtype=np.float32), 8)[None, :, None]
print("vmap == loop of calls:", bool(np.array_equal(batched, looped)))
assert np.array_equal(batched, looped) and np.array_equal(batched, expected)
