"""Ahead of time: trace, lower to StableHLO, compile, inspect the cost, then call."""
import jax
import jax.numpy as jnp


def layer(w, x):
    return jnp.tanh(x @ w)


w, x = jnp.ones((32, 16)), jnp.ones((64, 32))
lowered = jax.jit(layer).lower(w, x)  # shapes and dtypes are fixed from here on
print("\n".join(lowered.as_text().splitlines()[:5]))

compiled = lowered.compile()
cost = compiled.cost_analysis()  # a plain dict of estimates on this backend
print(jax.default_backend(), type(cost).__name__,
      {k: cost.get(k) for k in ("flops", "transcendentals", "bytes accessed")})
assert isinstance(cost, dict)
if jax.default_backend() == "cpu":  # the CPU's cost model; other backends count by their own rules
    assert cost["flops"] == 2 * 64 * 32 * 16  # one multiply and one add per term of the product
    assert cost["transcendentals"] == 64 * 16  # one tanh per output element

assert jnp.allclose(compiled(w, x), layer(w, x))  # runs without tracing again

# Only shapes and dtypes matter: lower from ShapeDtypeStruct, no data needed.
spec = jax.ShapeDtypeStruct((64, 32), jnp.float32)
assert jax.jit(layer).lower(w, spec).compile()(w, x).shape == (64, 16)

error = None
try:
    compiled(w, jnp.ones((8, 32)))  # a compiled object accepts only its own shapes
except TypeError as err:
    error = err
print("other shape:", str(error).splitlines()[-1])
assert "Argument types differ from the types for which this computation was compiled" in str(error)
