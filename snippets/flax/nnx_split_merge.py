"""nnx.split a model into a graph definition and state, run a pure function, nnx.update it back."""
import jax
import jax.numpy as jnp
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.body = nnx.Linear(3, 8, rngs=rngs)
        self.bn = nnx.BatchNorm(8, rngs=rngs)  # training mode: updates its statistics
        self.head = nnx.Linear(8, 2, rngs=rngs)

    def __call__(self, x):
        return self.head(jax.nn.relu(self.bn(self.body(x))))


model = MLP(nnx.Rngs(0))
x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
graphdef, params, batch_stats = nnx.split(model, nnx.Param, nnx.BatchStat)
print("params:     ", jax.tree.map(jnp.shape, nnx.to_pure_dict(params)))
print("batch_stats:", jax.tree.map(jnp.shape, nnx.to_pure_dict(batch_stats)))


@jax.jit
def forward(params, batch_stats, x):  # a pure function of arrays
    m = nnx.merge(graphdef, params, batch_stats)  # a new object, inside the trace
    y = m(x)
    return y, nnx.state(m, nnx.BatchStat)  # changed state must be returned


y, new_stats = forward(params, batch_stats, x)
print("mean before update:", float(jnp.abs(model.bn.mean[...]).sum()))
assert float(jnp.abs(model.bn.mean[...]).sum()) == 0.0  # the jitted call changed nothing
nnx.update(model, new_stats)  # write the new statistics into the object
print("mean after update: ", round(float(jnp.abs(model.bn.mean[...]).sum()), 4))
assert jnp.array_equal(model.bn.mean[...], new_stats["bn"]["mean"][...])
assert float(jnp.abs(model.bn.mean[...]).sum()) > 0.0

rebuilt = nnx.merge(graphdef, params, batch_stats)  # the object view again
diff = float(jnp.max(jnp.abs(rebuilt(x) - y)))
print(f"{type(rebuilt).__name__}, same object: {rebuilt is model}, max |diff| = {diff:.1e} (<= 1e-6)")
assert isinstance(rebuilt, MLP) and rebuilt is not model and diff <= 1e-6
