"""JAX: jax.jit compiles once per distinct input shape, with no dynamic-shape mode."""
import jax
import jax.numpy as jnp

traces = []


@jax.jit
def f(x):
    traces.append(x.shape)
    return jnp.sin(x) * 2


lengths = (3, 3, 4, 5, 6)
for n in lengths:
    assert jnp.allclose(f(jnp.ones(n)), jnp.sin(jnp.ones(n)) * 2)
print(f"lengths {lengths}: {len(traces)} compilations, shapes {traces}")
assert len(traces) == len(set(lengths))  # every new length traces and compiles again
