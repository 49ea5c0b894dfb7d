"""Flax NNX: the same module with an nnx.Param, an nnx.BatchStat and a custom Variable type."""
import jax
import jax.numpy as jnp
from flax import nnx


class Count(nnx.Variable):  # a new Variable type: state, but not a Param
    pass


class Net(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.w = nnx.Param(jax.random.normal(rngs.params(), (3, 2)))  # trained
        self.running_mean = nnx.BatchStat(jnp.zeros(2))  # saved, not trained
        self.calls = Count(jnp.array(0))

    def __call__(self, x):
        y = x @ self.w[...]
        self.running_mean[...] = 0.9 * self.running_mean[...] + 0.1 * y.mean(0)
        self.calls[...] += 1  # written in place, on the object
        return y


def shapes(state):  # nested dict of shapes, one line
    return jax.tree.map(jnp.shape, nnx.to_pure_dict(state))


model = Net(nnx.Rngs(0))
x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
grads = nnx.grad(lambda m: jnp.mean(m(x) ** 2))(model)  # by default: every nnx.Param

print("Param:     ", shapes(nnx.state(model, nnx.Param)))
print("BatchStat: ", shapes(nnx.state(model, nnx.BatchStat)))
print("Count:     ", shapes(nnx.state(model, Count)))
print("buffers:   ", shapes(nnx.state(model, (nnx.BatchStat, Count))))  # a tuple: any of
print("gradients: ", shapes(grads))
print("calls:", int(model.calls[...]), "| running_mean:", model.running_mean[...].round(3))
assert list(nnx.to_pure_dict(nnx.state(model, nnx.Param))) == ["w"]
assert list(nnx.to_pure_dict(grads)) == ["w"]  # BatchStat and Count get no gradient
assert sorted(nnx.to_pure_dict(nnx.state(model))) == ["calls", "running_mean", "w"]
assert int(model.calls[...]) == 1 and bool(jnp.abs(model.running_mean[...]).sum() > 0)
