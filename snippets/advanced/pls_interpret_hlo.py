"""Interpret mode turns the kernel into ordinary XLA operations; without it, the CPU refuses."""
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
