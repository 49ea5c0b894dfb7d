"""Orbax saves in a background thread: what exists before and after wait_until_finished()."""
import os
import pathlib
import tempfile

import absl.logging
import jax.numpy as jnp
import orbax.checkpoint as ocp

absl.logging.set_verbosity(absl.logging.ERROR)  # keep Orbax's log lines off stderr

params = {"w": jnp.ones((64, 64)), "b": jnp.zeros(64)}
with tempfile.TemporaryDirectory() as tmp:
    checkpointer = ocp.StandardCheckpointer()
    path = pathlib.Path(tmp) / "step_1"
    # Runs in a fresh process: after earlier saves in the same process, the write may not have begun yet.
    checkpointer.save(path, params)  # returns before the files are final
    entries = sorted(os.listdir(tmp))  # one look: the background thread may finish at any moment
    print("right after save(), step_1 exists:", "step_1" in entries, "| entries:", entries)
    if any(e.endswith(".orbax-checkpoint-tmp") for e in entries):  # the write was still going on ...
        assert "step_1" not in entries  # ... so the final name did not exist yet: it comes by renaming
    params = {"w": params["w"] * 0.5, "b": params["b"] + 1.0}  # training goes on meanwhile

    checkpointer.wait_until_finished()  # or close(), or leave a `with` block
    print("after wait_until_finished():", sorted(os.listdir(tmp)))
    assert path.exists() and os.listdir(tmp) == ["step_1"]  # renamed: no temporary directory left
    restored = checkpointer.restore(path)
    checkpointer.close()
print("restored w[0, 0]:", restored["w"][0, 0], "| current w[0, 0]:", params["w"][0, 0])
assert float(restored["w"][0, 0]) == 1.0  # the values passed to save(), not the later ones
