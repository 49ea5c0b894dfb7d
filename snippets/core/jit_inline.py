"""inline decides where a nested jitted function is merged into its caller."""
import jax
import jax.numpy as jnp


def inner(x):
    return jnp.sin(x)


for policy in (False, True, jax.Inline.JAX_EARLY):
    nested = jax.jit(inner, inline=policy)
    outer = jax.jit(lambda x: nested(x) + 1.0)
    jaxpr_calls = str(jax.make_jaxpr(outer)(1.0)).count("name=inner")  # nested jit in the jaxpr?
    stablehlo_calls = outer.lower(1.0).as_text().count("call @inner")  # a call in the lowered code?
    print(f"inline={policy!s:17} nested jit in jaxpr: {jaxpr_calls}  call in StableHLO: {stablehlo_calls}")
    assert jnp.allclose(outer(1.0), jnp.sin(1.0) + 1.0)  # the result never changes
    if policy is False:  # default, Inline.AUTO: kept as a separate function
        assert jaxpr_calls == 1 and stablehlo_calls == 1
    elif policy is True:  # Inline.JAX_LATE: merged while lowering to StableHLO
        assert jaxpr_calls == 1 and stablehlo_calls == 0
    else:  # Inline.JAX_EARLY: merged already while tracing
        assert jaxpr_calls == 0 and stablehlo_calls == 0

print("all policies:", [p.name for p in jax.Inline])
# XLA_EARLY and XLA_LATE keep the call in StableHLO and mark it for XLA's inliner.
for policy in (jax.Inline.XLA_EARLY, jax.Inline.XLA_LATE):
    nested = jax.jit(inner, inline=policy)
    text = jax.jit(lambda x: nested(x) + 1.0).lower(1.0).as_text()
    assert text.count("call @inner") == 1 and f'inlineable = "{policy.value}"' in text
