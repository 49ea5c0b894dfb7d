"""input_output_aliases: update one row of a cache in place, with and without donation."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl

ROW = 2  # the kernel touches only this block of 8 rows (rows 16 to 23) of the (32, 128) cache


def add_row_kernel(new_ref, cache_ref, out_ref):
    out_ref[...] = cache_ref[...] + new_ref[...]


def make_update(alias):
    row = pl.BlockSpec((8, 128), lambda i: (ROW, 0))  # the grid has 1 program: block ROW only
    return pl.pallas_call(
        add_row_kernel, out_shape=jax.ShapeDtypeStruct((32, 128), jnp.float32), grid=(1,),
        in_specs=[pl.BlockSpec((8, 128), lambda i: (0, 0)), row], out_specs=row,
        input_output_aliases={1: 0} if alias else {},  # input 1 (the cache) is output 0
        interpret=True)


new = jnp.ones((8, 128), jnp.float32)
for alias in (False, True):
    for donate in (False, True):
        cache = jnp.full((32, 128), 7.0, jnp.float32)
        pointer = cache.unsafe_buffer_pointer()
        out = jax.jit(make_update(alias), donate_argnums=(1,) if donate else ())(new, cache)
        same = out.unsafe_buffer_pointer() == pointer
        print(f"alias={alias!s:5} donate={donate!s:5} blocks: {np.asarray(out)[::8, 0]}"
              f"  input deleted: {cache.is_deleted()!s:5}  same buffer: {same}")
        rows = np.arange(8 * ROW, 8 * ROW + 8)
        assert (np.asarray(out)[rows] == 8.0).all()  # the written block is right in every case
        others = np.delete(np.asarray(out), rows, axis=0)
        # Aliased: the output starts as the input. Not aliased: interpret mode starts it as NaN.
        assert (others == 7.0).all() if alias else np.isnan(others).all()
        assert cache.is_deleted() == donate
        if not donate:
            assert (np.asarray(cache) == 7.0).all()  # no donation: the caller's array is intact
        if jax.default_backend() == "cpu":  # CPU fact: a donated buffer is reused for the output
            assert same == donate
