"""Flax NNX: Param vs BatchStat, nnx.state, and what model.train() / model.eval() / nnx.view switch."""
import jax
import jax.numpy as jnp
from flax import nnx


class Net(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(4, 4, rngs=rngs)
        self.bn = nnx.BatchNorm(4, rngs=rngs)  # mean / var are nnx.BatchStat variables
        self.dropout = nnx.Dropout(0.5, rngs=rngs)

    def __call__(self, x):
        return self.dropout(self.bn(self.linear(x)))


model = Net(nnx.Rngs(0))  # explicit seed: weights now, dropout masks later
for path, var in nnx.to_flat_state(nnx.state(model)):  # like state_dict, plus the RNG stream
    print(f"{'/'.join(map(str, path)):20s} {type(var).__name__}")
assert issubclass(nnx.BatchStat, nnx.Variable) and not issubclass(nnx.BatchStat, nnx.Param)
assert len(jax.tree.leaves(nnx.state(model, nnx.Param))) == 4  # like model.parameters()

x = jnp.arange(12.0).reshape(3, 4)
assert not model.dropout.deterministic and not model.bn.use_running_average  # starts training
before = model.bn.mean[...]
model(x)  # training: dropout on, batch statistics, running mean updated in place
print("train(): running mean changed:", not jnp.array_equal(before, model.bn.mean[...]))
assert not jnp.array_equal(before, model.bn.mean[...])

model.eval()  # sets deterministic=True and use_running_average=True on every submodule
frozen = model.bn.mean[...]
same = bool(jnp.array_equal(model(x), model(x)))
print("eval(): two calls equal:", same, "| running mean unchanged:",
      bool(jnp.array_equal(frozen, model.bn.mean[...])))
assert same and jnp.array_equal(frozen, model.bn.mean[...])

# nnx.view: an evaluation view that shares the variables and leaves the model in training mode.
model.train()
evaluator = nnx.view(model, deterministic=True, use_running_average=True)
print("view shares the kernel:", evaluator.linear.kernel is model.linear.kernel,
      "| model still training:", not model.dropout.deterministic)
assert evaluator.linear.kernel is model.linear.kernel and evaluator.dropout.deterministic
assert not model.dropout.deterministic and not model.bn.use_running_average

# Like buffers, BatchStats get no gradient: nnx.grad differentiates the Params only.
grads = nnx.grad(lambda m: jnp.sum(m(x) ** 2))(evaluator)
print("gradient holds:", sorted({type(v).__name__ for _, v in nnx.to_flat_state(grads)}))
assert {type(v) for _, v in nnx.to_flat_state(grads)} == {nnx.Param}
