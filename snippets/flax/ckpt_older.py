"""Older checkpoint code: flax.training.checkpoints now writes through Orbax; max_to_keep still works."""
import os
import pathlib
import tempfile
import warnings

import absl.logging

absl.logging.set_verbosity(absl.logging.ERROR)  # before the imports: flax.training logs one
import flax
import jax.numpy as jnp
import orbax.checkpoint as ocp
from flax.training import checkpoints

params = {"w": jnp.arange(3.0)}
with tempfile.TemporaryDirectory() as tmp:
    path = checkpoints.save_checkpoint(tmp, params, step=1)  # the pre-Orbax Flax call
    files = sorted(os.listdir(path))
    restored = checkpoints.restore_checkpoint(tmp, target={"w": jnp.zeros(3)})
print("flax_use_orbax_checkpointing:", flax.config.flax_use_orbax_checkpointing)
print("wrote", pathlib.Path(path).name, "with Orbax files:", files[:3], "...")
assert flax.config.flax_use_orbax_checkpointing and "manifest.ocdbt" in files
assert jnp.array_equal(restored["w"], params["w"])

# max_to_keep: its docstring says deprecated, use preservation_policy; it warns about nothing.
with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    options = ocp.CheckpointManagerOptions(max_to_keep=2)
    with ocp.CheckpointManager(pathlib.Path(tmp), options=options) as manager:
        for step in range(1, 5):
            manager.save(step, args=ocp.args.StandardSave(params))
    kept = sorted(os.listdir(tmp))
print("max_to_keep=2 kept:", kept, "| Python warnings:", len(caught))
assert kept == ["3", "4"] and not caught
