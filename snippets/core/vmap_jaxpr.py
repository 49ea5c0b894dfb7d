"""vmap rewrites each operation to carry a batch dimension; no loop is left in the program."""
import jax
import jax.numpy as jnp


def predict(w, b, x):  # one example: x has shape (3,)
    return jnp.tanh(x @ w + b)


w, b, xs = jnp.ones((3, 2)), jnp.zeros(2), jnp.ones((5, 3))
one = jax.make_jaxpr(predict)(w, b, xs[0])
batched = jax.make_jaxpr(jax.vmap(predict, in_axes=(None, None, 0)))(w, b, xs)
print(one)
print(batched)

ops = [eqn.primitive.name for eqn in batched.eqns]
# The same operations as for one example, plus a broadcast of the shared bias...
assert [op for op in ops if op != "broadcast_in_dim"] == [e.primitive.name for e in one.eqns]
# ...and no loop primitive: the vector-matrix product became one matrix product.
assert not {"scan", "while"} & set(ops)
dot = batched.eqns[ops.index("dot_general")]
assert dot.outvars[0].aval.shape == (5, 2)
# Without jit, the vmapped function traces the Python body at every call; under jit, once.
traces = []


def counted(w, b, x):
    traces.append(None)
    return predict(w, b, x)


eager = jax.vmap(counted, in_axes=(None, None, 0))
eager(w, b, xs), eager(w, b, xs)
assert len(traces) == 2
compiled = jax.jit(eager)
compiled(w, b, xs), compiled(w, b, xs)
assert len(traces) == 3
