"""What an Orbax checkpoint holds: named arrays, no code; jax.export, by contrast, stores a program."""
import os
import pathlib
import tempfile

import absl.logging
import jax
import jax.numpy as jnp
import orbax.checkpoint as ocp
from flax import nnx

absl.logging.set_verbosity(absl.logging.ERROR)  # keep Orbax's log lines off stderr


class MLP(nnx.Module):
    def __init__(self, rngs):
        self.l1 = nnx.Linear(4, 8, rngs=rngs)
        self.l2 = nnx.Linear(8, 1, rngs=rngs)
        self.drop = nnx.Dropout(0.1, rngs=rngs)  # holds a random stream: a key and a counter

    def __call__(self, x):
        return self.l2(self.drop(jnp.tanh(self.l1(x))))


model = MLP(nnx.Rngs(0))
model.eval()  # no dropout, so that the outputs below are deterministic
with tempfile.TemporaryDirectory() as tmp:
    path = pathlib.Path(tmp) / "ckpt"
    with ocp.StandardCheckpointer() as checkpointer:
        checkpointer.save(path, nnx.state(model))
        raw = checkpointer.restore(path)  # no target: the tree comes back as plain dicts
    print("files:", sorted(os.listdir(path)))

leaves = jax.tree_util.tree_leaves_with_path(raw)
for key_path, leaf in leaves:
    print(f"  {jax.tree_util.keystr(key_path):32s} {leaf.dtype} {leaf.shape}")
assert isinstance(raw, dict) and all(isinstance(leaf, jax.Array) for _, leaf in leaves)
assert jax.dtypes.issubdtype(raw["drop"]["rngs"]["key"]["value"].dtype, jax.dtypes.prng_key)

# jax.export, by contrast, holds the traced program (here with the weights as constants).
x = jnp.ones((2, 4))
exported = jax.export.export(jax.jit(lambda x: model(x)))(x)
print("exported:", type(exported).__name__, "| its StableHLO calls tanh:", "tanh" in exported.mlir_module())
expected = model(x)
del model, MLP  # the exported program no longer needs either
assert "stablehlo.tanh" in exported.mlir_module() and len(exported.in_avals) == 1  # x only
assert jnp.array_equal(exported.call(x), expected)
