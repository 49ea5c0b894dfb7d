"""ocp.CheckpointManager: save every 2 steps, keep the latest 2, restore the newest into an abstract model."""
import os
import pathlib
import tempfile

import absl.logging
import jax
import jax.numpy as jnp
import optax
import orbax.checkpoint as ocp
from flax import nnx

absl.logging.set_verbosity(absl.logging.ERROR)  # keep Orbax's log lines off stderr


def build():
    model = nnx.Linear(4, 1, rngs=nnx.Rngs(0))
    return model, nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)


@nnx.jit
def train_step(model, optimizer, x, y):
    optimizer.update(model, nnx.grad(lambda m: jnp.mean((m(x) - y) ** 2))(model))


x = jax.random.normal(jax.random.key(0), (32, 4))
y = x.sum(axis=1, keepdims=True)
model, optimizer = build()
options = ocp.CheckpointManagerOptions(
    save_decision_policy=ocp.checkpoint_managers.FixedIntervalPolicy(2),  # steps 2, 4, ...
    preservation_policy=ocp.checkpoint_managers.LatestN(n=2),  # delete older ones
)
with tempfile.TemporaryDirectory() as tmp:
    root = pathlib.Path(tmp) / "run"
    with ocp.CheckpointManager(root, options=options) as manager:
        saved = []
        for step in range(1, 9):
            train_step(model, optimizer, x, y)
            state = {"model": nnx.state(model), "optimizer": nnx.state(optimizer)}
            if manager.save(step, args=ocp.args.StandardSave(state)):  # False: skipped
                saved.append(step)
        manager.wait_until_finished()  # the last save and the deletions are done
        print("saved at steps:", saved, "| kept:", manager.all_steps())
        print("directories:", sorted(os.listdir(root)))
        assert saved == [2, 4, 6, 8] and sorted(os.listdir(root)) == ["6", "8"]

        abstract_model, abstract_optimizer = nnx.eval_shape(build)
        model_def, model_state = nnx.split(abstract_model)
        optimizer_def, optimizer_state = nnx.split(abstract_optimizer)
        abstract = {"model": model_state, "optimizer": optimizer_state}
        latest = manager.latest_step()
        restored = manager.restore(latest, args=ocp.args.StandardRestore(abstract))
new_model = nnx.merge(model_def, restored["model"])
new_optimizer = nnx.merge(optimizer_def, restored["optimizer"])
print("restored step:", latest, "| optimizer.step:", new_optimizer.step[...])
assert latest == 8 and int(new_optimizer.step[...]) == 8
assert jnp.array_equal(new_model(x), model(x))
