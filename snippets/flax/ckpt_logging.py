"""Orbax logs through absl: which messages pass at the default level, and how to keep warnings off stderr."""
import logging
import os
import tempfile

import absl.logging
import jax.numpy as jnp
import orbax.checkpoint as ocp


class Keep(logging.Handler):  # collects records here, so that this demo writes nothing to stderr
    def __init__(self):
        super().__init__()
        self.records = []

    def emit(self, record):
        self.records.append(record)


absl_logger = logging.getLogger("absl")
keep = Keep()
absl_logger.addHandler(keep)
absl_logger.propagate = False  # normally records go on to a stderr handler on the root logger

absl.logging.set_verbosity(absl.logging.WARNING)  # absl's default level
with tempfile.TemporaryDirectory() as tmp, ocp.StandardCheckpointer() as checkpointer:
    tree = {"w": jnp.arange(3.0)}
    checkpointer.save(os.path.join(tmp, "step_1"), tree)  # the current API: save and restore
    checkpointer.restore(os.path.join(tmp, "step_1"), tree)
print("at WARNING, save and restore:", [(r.levelname, r.getMessage()[:55]) for r in keep.records])
assert keep.records == []  # nothing to hide: they log nothing at this level

with tempfile.TemporaryDirectory() as tmp:  # an older-style call: Orbax logs a warning
    ocp.CheckpointManager(tmp, checkpointers=ocp.PyTreeCheckpointer()).close()
print("at WARNING, older-style call:", [(r.levelname, r.getMessage()[:55]) for r in keep.records])
assert [r.levelname for r in keep.records] == ["WARNING"]

keep.records.clear()
absl.logging.set_verbosity(absl.logging.ERROR)  # warnings and below are dropped, errors pass
with tempfile.TemporaryDirectory() as tmp:
    ocp.CheckpointManager(tmp, checkpointers=ocp.PyTreeCheckpointer()).close()
    absl.logging.error("an error record")  # stands in for an Orbax error, which still passes
print("at ERROR, older-style call:  ", [(r.levelname, r.getMessage()[:55]) for r in keep.records])
assert [r.levelname for r in keep.records] == ["ERROR"]

absl_logger.removeHandler(keep)
absl_logger.propagate = True
