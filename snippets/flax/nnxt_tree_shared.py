"""A model that shares a layer: tree mode (graph=False) refuses it, the other three ways run it."""
import flax
import jax
import jax.numpy as jnp
from flax import nnx


class Tied(nnx.Module):
    def __init__(self, rngs):
        self.first = nnx.Linear(2, 2, rngs=rngs)
        self.second = self.first  # the same layer twice: its Params are shared

    def __call__(self, x):
        return self.second(self.first(x))


def forward(model, x):
    return model(x)


model, x = Tied(nnx.Rngs(0)), jnp.ones((1, 2))
print("default graph mode in this Flax:", flax.config.nnx_graph_mode)
assert flax.config.nnx_graph_mode  # so nnx.jit(f) means nnx.jit(f, graph=True) here
y = nnx.jit(forward)(model, x)
print("graph mode:", y)

caught = None
try:
    nnx.jit(forward, graph=False)(model, x)
except ValueError as err:
    caught = err
reason = next(line for line in str(caught).splitlines() if "does not support" in line)
print("tree mode:", type(caught).__name__, "-", reason.split(" (")[0])
assert "does not support Variable aliasing" in reason

# The other two ways around the overhead keep the sharing: they split in graph mode.
y_cached = nnx.cached_partial(nnx.jit(forward), model)(x)
graphdef, state = nnx.split(model)
assert len(jax.tree.leaves(state)) == 2  # one kernel and one bias: the shared layer once
y_split = jax.jit(lambda state, x: nnx.merge(graphdef, state)(x))(state, x)
print("cached_partial and jax.jit on split state agree:",
      bool(jnp.allclose(y_cached, y)), bool(jnp.allclose(y_split, y)))
assert jnp.allclose(y_cached, y, atol=1e-6) and jnp.allclose(y_split, y, atol=1e-6)
