"""Flax NNX and Orbax: save a model and its optimizer, restore both into a new model, resume exactly."""
import pathlib
import tempfile

import absl.logging
import jax
import jax.numpy as jnp
import optax
import orbax.checkpoint as ocp
from flax import nnx

absl.logging.set_verbosity(absl.logging.ERROR)  # keep Orbax's log lines off stderr


class MLP(nnx.Module):
    def __init__(self, rngs):
        self.l1 = nnx.Linear(4, 8, rngs=rngs)
        self.l2 = nnx.Linear(8, 1, rngs=rngs)

    def __call__(self, x):
        return self.l2(jnp.tanh(self.l1(x)))


@nnx.jit
def train_step(model, optimizer, x, y):
    grads = nnx.grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    optimizer.update(model, grads)


x = jax.random.normal(jax.random.key(0), (32, 4))
y = jnp.sin(x.sum(axis=1, keepdims=True))
model = MLP(nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)
for _ in range(5):
    train_step(model, optimizer, x, y)

with tempfile.TemporaryDirectory() as tmp:
    path = pathlib.Path(tmp) / "step_5"
    with ocp.StandardCheckpointer() as checkpointer:  # leaving the block waits for the write
        checkpointer.save(path, {"model": nnx.state(model), "optimizer": nnx.state(optimizer)})
    print("saved:", path.name, "| a directory:", path.is_dir())

    # Like load_state_dict: build a new model and optimizer, then overwrite their state.
    new_model = MLP(nnx.Rngs(1))  # different initial weights
    new_optimizer = nnx.Optimizer(new_model, optax.adam(1e-2), wrt=nnx.Param)
    assert not jnp.array_equal(new_model(x), model(x))
    target = {"model": nnx.state(new_model), "optimizer": nnx.state(new_optimizer)}
    with ocp.StandardCheckpointer() as checkpointer:
        restored = checkpointer.restore(path, target)
nnx.update(new_model, restored["model"])
nnx.update(new_optimizer, restored["optimizer"])

print("restored optimizer step:", new_optimizer.step[...])
print("outputs identical:", bool(jnp.array_equal(new_model(x), model(x))))
assert jnp.array_equal(new_model(x), model(x))  # bit for bit, no tolerance
# Resuming with a fresh Adam state instead of the saved one: a different run.
no_opt = MLP(nnx.Rngs(2))
nnx.update(no_opt, restored["model"])
fresh_optimizer = nnx.Optimizer(no_opt, optax.adam(1e-2), wrt=nnx.Param)
for _ in range(3):  # resume all three runs from step 5
    train_step(model, optimizer, x, y)
    train_step(new_model, new_optimizer, x, y)
    train_step(no_opt, fresh_optimizer, x, y)


def identical(a, b):
    return all(jax.tree.leaves(jax.tree.map(jnp.array_equal, nnx.state(a), nnx.state(b))))


print("3 steps later, identical parameters:", identical(new_model, model))
print("same, with a fresh optimizer state:", identical(no_opt, model))
assert identical(new_model, model) and int(new_optimizer.step[...]) == 8
assert not identical(no_opt, model)
