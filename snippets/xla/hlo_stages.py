"""One function, three programs: the jaxpr, the StableHLO that XLA receives, the HLO that XLA compiled."""
import jax
import jax.numpy as jnp


def predict(w, b, x):
    return jnp.tanh(x @ w + b)


w, b, x = jnp.ones((3, 2)), jnp.zeros(2), jnp.ones((4, 3))

jaxpr = jax.make_jaxpr(predict)(w, b, x)  # 1. what JAX traced: its own primitives
lowered = jax.jit(predict).lower(w, b, x)  # 2. StableHLO: the program handed to XLA
compiled = lowered.compile()  # 3. HLO after XLA's optimizations for this backend

print("1. jaxpr equations:", [eqn.primitive.name for eqn in jaxpr.eqns])
(add,) = [eqn for eqn in jaxpr.eqns if eqn.primitive.name == "add"]
print("   the jaxpr's add takes", [v.aval.str_short() for v in add.invars])
stablehlo = lowered.as_text()
ops = [line.split("= ")[1].split()[0] for line in stablehlo.splitlines() if "= stablehlo." in line]
print("2. StableHLO ops:  ", ops)
broadcasts = [line.split(" : ")[-1] for line in stablehlo.splitlines() if "stablehlo.broadcast_in_dim" in line]
print("   the two broadcasts of b:", broadcasts)
hlo = compiled.as_text()
fusions = [line.strip() for line in hlo.splitlines() if " fusion(" in line]
print("3. optimized HLO, lines with a fusion call:")
print("\n".join("   " + line for line in fusions))

# The jaxpr's add stretches b's axis of size 1 itself; StableHLO's add needs equal shapes,
# so the lowering writes that step out as a second broadcast_in_dim.
assert [v.aval.str_short() for v in add.invars] == ["float32[4,2]", "float32[1,2]"]
assert ops == ["stablehlo.dot_general", "stablehlo.broadcast_in_dim", "stablehlo.broadcast_in_dim",
               "stablehlo.add", "stablehlo.tanh"]
assert broadcasts == ["(tensor<2xf32>) -> tensor<1x2xf32>", "(tensor<1x2xf32>) -> tensor<4x2xf32>"]
# XLA, not JAX, fuses: the lowered program has no fusion, the compiled one has at least one.
assert "fusion" not in stablehlo and len(fusions) >= 1
# A fused instruction names the function and the jaxpr primitive it came from, in its metadata
# (a TPU also adds layout-changing bitcast fusions, which carry none).
assert any('op_name="jit(predict)/' in line for line in fusions)
if jax.default_backend() == "cpu":  # XLA:CPU's grouping and names; other backends fuse their own way
    entry = hlo[hlo.index("\nENTRY"):]
    fused = hlo[hlo.index("%fused_computation"):hlo.index("\nENTRY")]
    assert len(fusions) == 1 and "%add_tanh_fusion = " in fusions[0]  # add and tanh: one fusion
    assert " dot(" in entry and " dot(" not in fused  # the matrix product stays outside it
    assert fused.count(" broadcast(") == 1  # the two broadcasts of b became one, inside the fusion
assert jnp.allclose(compiled(w, b, x), predict(w, b, x))  # same numbers at every stage
