"""nnx.jit takes the model as an argument and writes the state changed inside back into it."""
import jax
import jax.numpy as jnp
from flax import nnx


class Count(nnx.Variable):  # a Variable type of our own: state, but not a parameter
    pass


class Net(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(3, 4, rngs=rngs)
        self.bn = nnx.BatchNorm(4, use_running_average=False, rngs=rngs)  # mean, var: BatchStat
        self.calls = Count(jnp.array(0))

    def __call__(self, x):
        self.calls[...] += 1  # an in-place update, like a buffer in torch
        return self.bn(self.linear(x))


traces = []  # a trace-time side effect: counts compilations


@nnx.jit
def forward(model, x):
    traces.append(1)
    return model(x)


x = jax.random.normal(jax.random.key(1), (8, 3)) + 2.0
model = Net(nnx.Rngs(0))
for _ in range(3):
    y = forward(model, x)
print(f"nnx.jit: calls = {model.calls[...]}, traces = {len(traces)}, "
      f"bn.mean = {model.bn.mean[...].round(3)}")
assert int(model.calls[...]) == 3 and len(traces) == 1  # updated on every call, compiled once
assert not jnp.allclose(model.bn.mean[...], 0.0)  # the running mean moved away from its init

# jax.jit accepts the module too, since it is a pytree, but the changes never come back.
other = Net(nnx.Rngs(0))
y_jax = jax.jit(lambda m, x: m(x))(other, x)
print(f"jax.jit: calls = {other.calls[...]}, bn.mean = {other.bn.mean[...].round(3)}")
assert int(other.calls[...]) == 0 and jnp.allclose(other.bn.mean[...], 0.0)
assert jnp.allclose(y_jax, Net(nnx.Rngs(0))(x), atol=1e-5)  # the output itself is right
