"""Restore into an abstract model from nnx.eval_shape: no parameter is allocated before the restore."""
import gc
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


def build(seed):
    model = MLP(nnx.Rngs(seed))
    return model, nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)


model, optimizer = build(0)  # stands in for a trained model and its optimizer
with tempfile.TemporaryDirectory() as tmp, ocp.StandardCheckpointer() as checkpointer:
    path = pathlib.Path(tmp) / "ckpt"
    checkpointer.save(path, {"model": nnx.state(model), "optimizer": nnx.state(optimizer)})

    gc.collect()
    existing = jax.live_arrays()  # held, so that no id below can be reused by a new array
    before = {id(a) for a in existing}
    abstract_model, abstract_optimizer = nnx.eval_shape(lambda: build(1))  # traced, not run
    model_def, model_state = nnx.split(abstract_model)
    optimizer_def, optimizer_state = nnx.split(abstract_optimizer)
    abstract = {"model": model_state, "optimizer": optimizer_state}
    print("new arrays after eval_shape:", len({id(a) for a in jax.live_arrays()} - before))
    print("a leaf before restore:", jax.tree.leaves(model_state)[1])
    assert all(isinstance(leaf, jax.ShapeDtypeStruct) for leaf in jax.tree.leaves(abstract))
    assert not {id(a) for a in jax.live_arrays()} - before

    restored = checkpointer.restore(path, abstract)  # waits for the save above, then reads
new_model = nnx.merge(model_def, restored["model"])
new_optimizer = nnx.merge(optimizer_def, restored["optimizer"])
new_arrays = {id(a) for a in jax.live_arrays()} - before
print("new arrays after restore:", len(new_arrays))
assert len(new_arrays) == len(jax.tree.leaves(abstract))  # each leaf once
print("a leaf after restore:", type(jax.tree.leaves(nnx.state(new_model))[1]).__name__)

x = jnp.ones((2, 4))
same = jax.tree.map(jnp.array_equal, nnx.state((new_model, new_optimizer)), nnx.state((model, optimizer)))
print("restored state equals saved state:", all(jax.tree.leaves(same)))
assert all(jax.tree.leaves(same)) and jnp.array_equal(new_model(x), model(x))
