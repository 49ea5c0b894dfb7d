"""An array in aux data (the static part) breaks jit on the next call; make it a child instead."""
import jax
import jax.numpy as jnp


class Scaled:
    def __init__(self, value, scale):
        self.value, self.scale = value, scale


# Wrong: `scale` is an array, but it goes into the aux data.
jax.tree_util.register_pytree_node(
    Scaled, lambda s: ((s.value,), s.scale), lambda scale, ch: Scaled(ch[0], scale))

f = jax.jit(lambda s: s.value * s.scale)
first = Scaled(jnp.ones(2), jnp.array([1.0, 2.0]))
print("first call: ", f(first))  # works: nothing in the cache to compare with yet
# Only `value` is an input of the traced program; `scale` was baked in as a constant.
n_inputs = len(f.trace(first).jaxpr.in_avals)
print("traced inputs:", n_inputs)
assert n_inputs == 1

error = None
try:  # an equal but new array: jit compares aux data with == to find its cache entry
    f(Scaled(jnp.ones(2), jnp.array([1.0, 2.0])))
except ValueError as err:
    error = err
print("second call:", type(error).__name__ + ":", error)
assert "arrays cannot be passed as metadata fields" in str(error)


class ScaledFixed:
    def __init__(self, value, scale):
        self.value, self.scale = value, scale


# Right: both arrays are children, so both are traced; the aux data is empty.
jax.tree_util.register_pytree_node(
    ScaledFixed, lambda s: ((s.value, s.scale), None), lambda _, ch: ScaledFixed(*ch))

traces = []


@jax.jit
def g(s):
    traces.append(1)  # counts traces: runs only when jit traces
    return s.value * s.scale


for scale in ([1.0, 2.0], [1.0, 2.0], [3.0, 4.0]):
    out = g(ScaledFixed(jnp.ones(2), jnp.array(scale)))
print("fixed: last output", out, "| traces:", len(traces))
assert jnp.allclose(out, jnp.array([3.0, 4.0])) and len(traces) == 1
