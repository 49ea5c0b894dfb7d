"""Fine-tune only the head: nnx.Optimizer(..., wrt=filter) leaves the other Params unchanged."""
import jax
import jax.numpy as jnp
import optax
from flax import nnx


class Net(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.body = nnx.Linear(3, 8, rngs=rngs)
        self.bn = nnx.BatchNorm(8, rngs=rngs)
        self.head = nnx.Linear(8, 1, rngs=rngs)

    def __call__(self, x):
        return self.head(jax.nn.relu(self.bn(self.body(x))))


def snapshot(model, flt):  # copies of the arrays that flt selects
    return jax.tree.map(jnp.copy, nnx.to_pure_dict(nnx.state(model, flt)))


model = Net(nnx.Rngs(0))
trainable = nnx.All(nnx.Param, nnx.PathContains("head"))  # Params whose path has "head"
frozen = nnx.All(nnx.Param, nnx.Not(nnx.PathContains("head")))
print("trainable:", jax.tree.map(jnp.shape, snapshot(model, trainable)))
optimizer = nnx.Optimizer(model, optax.adam(1e-2), wrt=trainable)


@nnx.jit
def train_step(model, optimizer, x, y):
    grads = nnx.grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)  # for every Param
    optimizer.update(model, grads)  # applies only the `wrt` part


x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
y = jnp.ones((4, 1))
groups = {"frozen": frozen, "head": trainable, "stats": nnx.BatchStat}


def unchanged_after(steps):
    before = {k: snapshot(model, f) for k, f in groups.items()}
    for _ in range(steps):
        train_step(model, optimizer, x, y)
    return {k: all(jax.tree.leaves(jax.tree.map(jnp.array_equal, before[k], snapshot(model, f))))
            for k, f in groups.items()}


result = unchanged_after(3)
print("unchanged after 3 steps:", result)
assert result == {"frozen": True, "head": False, "stats": False}  # the statistics still move
model.bn.eval()  # use_running_average=True: BatchNorm stops updating its statistics
result = unchanged_after(3)
print("with model.bn.eval():   ", result)
assert result == {"frozen": True, "head": False, "stats": True}
