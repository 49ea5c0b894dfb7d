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
stablehlo = lowered.as_text()
ops = [line.split("= ")[1].split()[0] for line in stablehlo.splitlines() if "= stablehlo." in line]
print("2. StableHLO ops:  ", ops)
hlo = compiled.as_text()
fusions = [line.strip() for line in hlo.splitlines() if " fusion(" in line]
print("3. optimized HLO, lines with a fusion call:")
print("\n".join("   " + line for line in fusions))

# XLA, not JAX, fuses: the lowered program has no fusion, the compiled one has at least one.
assert "fusion" not in stablehlo and len(fusions) >= 1
# The fused instruction names the function and the jaxpr primitive it came from, in its metadata.
assert all('op_name="jit(predict)/' in line for line in fusions)
assert jnp.allclose(compiled(w, b, x), predict(w, b, x))  # same numbers at every stage
