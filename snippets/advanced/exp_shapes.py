"""Symbolic shapes: what a call checks, and how a constraint lets a shape-dependent branch export."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import export


def scale(x):
    if x.shape[0] > 2:  # a Python branch on the batch size
        return 2 * x
    return x


try:  # with no constraint, "b > 2" is neither true nor false for every b
    export.export(jax.jit(scale))(jax.ShapeDtypeStruct(export.symbolic_shape("b, 4"), jnp.float32))
    raise AssertionError("expected InconclusiveDimensionOperation")
except jax.errors.InconclusiveDimensionOperation as err:
    print("export:", str(err).splitlines()[0])

spec = jax.ShapeDtypeStruct(export.symbolic_shape("b, 4", constraints=("b >= 3", "b <= 16")), jnp.float32)
exported = export.export(jax.jit(scale))(spec)  # the constraint decides the branch
assert np.allclose(exported.call(np.ones((5, 4), np.float32)), 2.0)

errors = {}
for shape in [(5, 3), (2, 4), (20, 4)]:  # wrong feature size, then b below and above the bounds
    try:
        exported.call(np.ones(shape, np.float32))
    except ValueError as err:
        errors[shape] = str(err)
        print(shape, "->", str(err).split(". ")[0])
assert "expected (b, 4) and called with (5, 3)" in errors[(5, 3)]
assert "symbolic shape constraint b >= 3" in errors[(2, 4)]
assert "symbolic shape constraint b <= 16" in errors[(20, 4)]

# A dimension expression: "2*k" accepts only an even batch.
even = export.export(jax.jit(lambda x: 2 * x))(
    jax.ShapeDtypeStruct(export.symbolic_shape("2*k, 4"), jnp.float32))
print("2*k:", even.in_avals)
assert even.call(np.ones((6, 4), np.float32)).shape == (6, 4)
try:
    even.call(np.ones((5, 4), np.float32))
except ValueError as err:
    assert "Division had remainder 1" in str(err)
else:
    raise AssertionError("an odd batch should not match 2*k")
