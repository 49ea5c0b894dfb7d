"""Flax is a thin layer: the NNX model traces to the same JAX operations as the hand-written function."""
import jax
import jax.numpy as jnp
from flax import nnx


def apply(params, x):  # the plain-JAX forward pass
    h = jnp.tanh(x @ params["l1"]["kernel"] + params["l1"]["bias"])
    return h @ params["l2"]["kernel"] + params["l2"]["bias"]


class MLP(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.l1 = nnx.Linear(3, 4, rngs=rngs)
        self.l2 = nnx.Linear(4, 2, rngs=rngs)

    def __call__(self, x):
        return self.l2(jnp.tanh(self.l1(x)))


model = MLP(nnx.Rngs(0))
graphdef, state = nnx.split(model)  # static structure + a pytree of arrays
params = nnx.to_pure_dict(state)
x = jnp.ones((5, 3))


def nnx_apply(state, x):  # what nnx.jit does for you: rebuild the model from its arrays, call it
    return nnx.merge(graphdef, state)(x)


ops = {}
for name, fn, arg in [("plain JAX", apply, params), ("Flax NNX", nnx_apply, state)]:
    ops[name] = [eqn.primitive.name for eqn in jax.make_jaxpr(fn)(arg, x).jaxpr.eqns]
    print(f"{name:9s} {len(ops[name])} ops: {' '.join(ops[name])}")

# The same arithmetic in the same order; only the op that shapes the bias for broadcasting differs.
layout = {"reshape", "broadcast_in_dim"}
arithmetic = {k: [op for op in v if op not in layout] for k, v in ops.items()}
print("arithmetic ops equal:", arithmetic["plain JAX"] == arithmetic["Flax NNX"])
assert arithmetic["plain JAX"] == arithmetic["Flax NNX"] == ["dot_general", "add", "tanh", "dot_general", "add"]
assert len(ops["plain JAX"]) == len(ops["Flax NNX"])
