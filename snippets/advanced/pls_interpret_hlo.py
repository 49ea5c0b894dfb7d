"""Interpret mode turns the kernel into ordinary XLA operations, run in grid order; without it, the CPU refuses."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def add_kernel(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] + y_ref[...]


def make_add(interpret):
    spec = pl.BlockSpec((128,), lambda i: (i,))
    return pl.pallas_call(add_kernel, out_shape=jax.ShapeDtypeStruct((512,), jnp.float32),
                          grid=(4,), in_specs=[spec, spec], out_specs=spec, interpret=interpret)


x = jnp.arange(512, dtype=jnp.float32)
print("backend:", jax.default_backend())
error = None
try:
    make_add(interpret=False)(x, x)  # asks for a real kernel compiler (Triton, Mosaic)
except ValueError as err:
    error = err
print("interpret=False:", error)

jaxpr = jax.make_jaxpr(make_add(interpret=True))(x, x)
print("jaxpr primitives:", [str(e.primitive) for e in jaxpr.eqns])
# HLO as JAX hands it to XLA (before XLA optimizes it), so the check does not depend on XLA passes.
hlo = jax.jit(make_add(interpret=True)).lower(x, x).as_text(dialect="hlo")
ops = [op for op in ("while", "dynamic-slice", "dynamic-update-slice") if op in hlo]
print("HLO of the interpreted kernel:", len(hlo.splitlines()), "lines, contains", ops)
if jax.default_backend() == "cpu":
    assert "Only interpret mode is supported on CPU" in str(error)
assert [str(e.primitive) for e in jaxpr.eqns] == ["pallas_call"]  # one opaque call for JAX
assert ops == ["while", "dynamic-slice", "dynamic-update-slice"]  # a loop over the grid

# The grid runs in order: four programs that all write one block leave the last one's value,
# where on a device they would race.
def write_program_id(o_ref):
    o_ref[...] = jnp.full(o_ref.shape, pl.program_id(0), jnp.int32)


shared = pl.pallas_call(write_program_id, out_shape=jax.ShapeDtypeStruct((8,), jnp.int32), grid=(4,),
                        out_specs=pl.BlockSpec((8,), lambda i: (0,)), interpret=True)()
print("four programs, one output block:", shared)
assert (shared == 3).all()

# No lowering rule is checked: 3 x 100 blocks (not powers of two, not 8 x 128 tiles) run.
odd = pl.BlockSpec((3, 100), lambda i, j: (i, j))
z = jnp.arange(1200, dtype=jnp.float32).reshape(6, 200)
out = pl.pallas_call(add_kernel, out_shape=jax.ShapeDtypeStruct((6, 200), jnp.float32), grid=(2, 2),
                     in_specs=[odd, odd], out_specs=odd, interpret=True)(z, z)
print("3 x 100 blocks in interpret mode: equal to z + z:", bool(jnp.array_equal(out, z + z)))
assert jnp.array_equal(out, z + z)
