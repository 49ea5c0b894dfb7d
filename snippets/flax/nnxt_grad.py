"""nnx.grad differentiates a model's Params and writes its other state back: split, jax.grad, merge."""
import jax
import jax.numpy as jnp
from flax import errors, nnx


class Net(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(3, 4, rngs=rngs)
        self.bn = nnx.BatchNorm(4, use_running_average=False, rngs=rngs)
        self.out = nnx.Linear(4, 1, rngs=rngs)

    def __call__(self, x):
        return self.out(jax.nn.relu(self.bn(self.linear(x))))


def loss_fn(model, x, y):
    return jnp.mean((model(x) - y) ** 2)


x = jax.random.normal(jax.random.key(1), (8, 3))
y = jnp.ones((8, 1))
model = Net(nnx.Rngs(0))

loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
print("grads:", type(grads).__name__, jax.tree.map(jnp.shape, nnx.to_pure_dict(grads)))
assert "mean" not in nnx.to_pure_dict(grads)["bn"]  # only nnx.Param is differentiated
assert not jnp.allclose(model.bn.mean[...], 0.0)  # the BatchStat update came back


# The same by hand, on an identical model: split off the Params, differentiate a pure
# function of them that rebuilds the model inside, and return the new BatchStat values.
graphdef, params, rest = nnx.split(Net(nnx.Rngs(0)), nnx.Param, ...)


def pure_loss(params, rest, x, y):
    m = nnx.merge(graphdef, params, rest, copy=True)
    return loss_fn(m, x, y), nnx.state(m, nnx.BatchStat)


(loss2, stats), grads2 = jax.value_and_grad(pure_loss, has_aux=True)(params, rest, x, y)
same = jax.tree.map(jnp.array_equal, nnx.to_pure_dict(grads), nnx.to_pure_dict(grads2))
print(f"loss {loss:.6f} vs {loss2:.6f}; gradients equal: {jax.tree.all(same)}")
assert loss == loss2 and jax.tree.all(same)
assert jnp.array_equal(stats["bn"]["mean"][...], model.bn.mean[...])

# Without copy=True, merge reuses the outer Variables, which the trace may not change.
caught = None
try:
    jax.grad(lambda p: loss_fn(nnx.merge(graphdef, p, rest), x, y))(params)
except errors.TraceContextError as err:
    caught = err
print(f"without copy=True: {type(caught).__name__}: {str(caught).splitlines()[0]}")
assert caught is not None
