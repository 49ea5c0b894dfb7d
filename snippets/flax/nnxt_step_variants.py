"""One NNX train step written four ways: nnx.jit, nnx.jit(graph=False), cached_partial, jax.jit."""
import jax
import jax.numpy as jnp
import optax
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, rngs):
        self.l1 = nnx.Linear(16, 32, rngs=rngs)
        self.l2 = nnx.Linear(32, 1, rngs=rngs)

    def __call__(self, x):
        return self.l2(jax.nn.relu(self.l1(x)))


def train_step(model, optimizer, x, y):  # the usual NNX step: updates model and optimizer
    loss, grads = nnx.value_and_grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    optimizer.update(model, grads)
    return loss


def fresh():  # identical initial weights for every version
    model = MLP(nnx.Rngs(0))
    return model, nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)


x = jax.random.normal(jax.random.key(1), (32, 16))
y = jax.random.normal(jax.random.key(2), (32, 1))
models = {}

model, optimizer = models["nnx.jit"] = fresh()  # 1. the default: graph mode
step = nnx.jit(train_step)
for _ in range(5):
    step(model, optimizer, x, y)

model, optimizer = models["nnx.jit(graph=False)"] = fresh()  # 2. tree mode
tree_step = nnx.jit(train_step, graph=False)
for _ in range(5):
    tree_step(model, optimizer, x, y)

model, optimizer = models["nnx.cached_partial"] = fresh()  # 3. model and optimizer bound once
cached_step = nnx.cached_partial(nnx.jit(train_step), model, optimizer)
for _ in range(5):
    cached_step(x, y)

model, optimizer = models["jax.jit + split/merge"] = fresh()  # 4. plain jax.jit on the state
graphdef, state = nnx.split((model, optimizer))  # once, before the loop


@jax.jit
def jax_step(state, x, y):
    model, optimizer = nnx.merge(graphdef, state)  # rebuild the objects inside the trace
    loss = train_step(model, optimizer, x, y)
    return loss, nnx.state((model, optimizer))  # hand the new state back


initial_kernel = model.l1.kernel[...]
for _ in range(5):
    loss, state = jax_step(state, x, y)
assert jnp.array_equal(model.l1.kernel[...], initial_kernel)  # the objects are not updated...
nnx.update((model, optimizer), state)  # ...until the final state is written into them
assert not jnp.array_equal(model.l1.kernel[...], initial_kernel)

reference = nnx.to_pure_dict(nnx.state(models["nnx.jit"][0], nnx.Param))
for name, (model, optimizer) in models.items():
    params = nnx.to_pure_dict(nnx.state(model, nnx.Param))
    diff = max(jax.tree.leaves(jax.tree.map(lambda a, b: jnp.abs(a - b).max(), params, reference)))
    print(f"{name:22s} optimizer.step = {optimizer.step[...]}, max diff to nnx.jit = {diff:.1e}")
    assert int(optimizer.step[...]) == 5 and diff < 1e-6  # same 5 steps, same parameters
