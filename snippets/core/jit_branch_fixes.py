"""Branch on traced values with jnp.where (both sides computed) or lax.cond (one side runs)."""
import jax
import jax.numpy as jnp
from jax import lax

traces = []  # one entry per trace of relu_cond


@jax.jit
def relu_where(x):
    return jnp.where(x > 0, x, 0.0)  # elementwise select: works for arrays of any shape


@jax.jit
def relu_cond(x):
    traces.append(x.shape)
    # lax.cond takes a scalar predicate and two functions with matching outputs.
    return lax.cond(x > 0, lambda v: v, lambda v: jnp.zeros_like(v), x)


xs = jnp.array([-2.0, -0.5, 0.0, 1.5, 3.0])
print("where:", relu_where(xs))
print("cond: ", [float(relu_cond(v)) for v in xs])
assert jnp.array_equal(relu_where(xs), jnp.maximum(xs, 0.0))
assert all(relu_cond(v) == max(float(v), 0.0) for v in xs)

# The branch is chosen when the program runs, so positive and negative inputs share one trace.
print("relu_cond traces for 5 scalars of both signs:", len(traces))
assert len(traces) == 1
