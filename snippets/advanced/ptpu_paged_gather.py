"""Scalar prefetch: a page table in SMEM steers the BlockSpec index map (a paged gather)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

ON_TPU = jax.default_backend() == "tpu"
print(jax.devices()[0].device_kind, "|", "compiled for the TPU" if ON_TPU else "TPU interpret mode: no TPU here")

PAGE, WIDTH, NUM_PAGES = 8, 128, 16  # the pool holds 16 pages of (8, 128): TPU-legal blocks
pool = jax.random.normal(jax.random.key(0), (NUM_PAGES * PAGE, WIDTH), jnp.float32)
table = jnp.array([5, 0, 11, 5, 3, 14], jnp.int32)  # one sequence's pages, in order; page 5 twice


seen = {}  # what the kernel's refs are, recorded while the kernel is traced


def gather_kernel(table_ref, page_ref, o_ref):  # scalar-prefetch refs come first
    seen.update(table=table_ref.aval, page=page_ref.aval)
    i = pl.program_id(0)
    # The kernel can read the table too: scale each page by (its page number + 1).
    o_ref[...] = page_ref[...] * (table_ref[i] + 1).astype(jnp.float32)


def paged_gather(table, pool):
    grid_spec = pltpu.PrefetchScalarGridSpec(
        num_scalar_prefetch=1,  # the first operand (the table) is copied to SMEM before the grid starts
        grid=(table.shape[0],),
        # Every index map gets the grid index and then the prefetched refs.
        in_specs=[pl.BlockSpec((PAGE, WIDTH), lambda i, table_ref: (table_ref[i], 0))],
        out_specs=pl.BlockSpec((PAGE, WIDTH), lambda i, table_ref: (i, 0)),
    )
    return pl.pallas_call(
        gather_kernel, grid_spec=grid_spec,
        out_shape=jax.ShapeDtypeStruct((table.shape[0] * PAGE, WIDTH), pool.dtype),
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
        interpret=False if ON_TPU else pltpu.InterpretParams())(table, pool)


out = jax.jit(paged_gather)(table, pool)
# The plain jnp reference: take the pages' rows, then scale.
pages = pool.reshape(NUM_PAGES, PAGE, WIDTH)[table]
expected = (pages * (table + 1)[:, None, None].astype(jnp.float32)).reshape(-1, WIDTH)
print(f"page table {table.tolist()} -> output {out.shape}, grid {table.shape}")
print(f"kernel refs: table {seen['table']}, page block {seen['page']}")
print("first element of each output block:", " ".join(f"{v:.3f}" for v in np.asarray(out[::PAGE, 0])))
assert str(seen["table"].memory_space) == "smem"  # the prefetched table lives in SMEM
assert out.shape == (table.shape[0] * PAGE, WIDTH)
assert jnp.array_equal(out, expected)  # a copy and one multiply: exact on every backend
print("equal to pool.reshape(16, 8, 128)[table] * (table + 1): True")
