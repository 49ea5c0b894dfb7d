"""JAX: make_jaxpr records JAX primitives, with the shape and dtype of every value."""
import jax
import jax.numpy as jnp

scale = jnp.arange(2.0)  # captured from the enclosing scope, not passed in


def layer(w, b, x):
    return jnp.tanh(x @ w + b) * scale


w, b, x = jnp.ones((3, 2)), jnp.zeros(2), jnp.ones((4, 3))
closed = jax.make_jaxpr(layer)(w, b, x)  # traced with these shapes and dtypes
print(closed)

jaxpr = closed.jaxpr
print("constants (before ';'):", [v.aval.str_short() for v in jaxpr.constvars])
print("inputs:", [v.aval.str_short() for v in jaxpr.invars])
print("primitives:", [eqn.primitive.name for eqn in jaxpr.eqns])
assert [v.aval.str_short() for v in jaxpr.invars] == ["float32[3,2]", "float32[2]", "float32[4,3]"]
assert [v.aval.str_short() for v in jaxpr.constvars] == ["float32[2]"]  # `scale` became a constant
assert [eqn.primitive.name for eqn in jaxpr.eqns] == [
    "dot_general", "broadcast_in_dim", "add", "tanh", "broadcast_in_dim", "mul"]
# Rank promotion: jax.numpy gives b (shape (2,)) a leading axis of size 1, and the add primitive
# itself stretches that axis to the 4 rows of x @ w, with no equation of its own.
broadcast_b, add = jaxpr.eqns[1], jaxpr.eqns[2]
assert broadcast_b.outvars[0].aval.str_short() == "float32[1,2]"
assert [v.aval.str_short() for v in add.invars] == ["float32[4,2]", "float32[1,2]"]
# Every value has a shape: the jaxpr knows the result is 4 x 2 before anything runs.
assert [v.aval.str_short() for v in jaxpr.outvars] == ["float32[4,2]"]

# A jaxpr is a program of its own: evaluating it gives the function's result.
(out,) = jax.core.eval_jaxpr(jaxpr, closed.consts, w, b, x)
assert jnp.allclose(out, layer(w, b, x))
