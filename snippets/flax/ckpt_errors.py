"""Two errors Orbax raises: saving over an existing checkpoint, and restoring into the wrong shape."""
import gc
import pathlib
import tempfile
import warnings

import absl.logging
import jax
import jax.numpy as jnp
import orbax.checkpoint as ocp

absl.logging.set_verbosity(absl.logging.ERROR)  # keep Orbax's log lines off stderr

save_error = shape_error = None
with tempfile.TemporaryDirectory() as tmp, ocp.StandardCheckpointer() as checkpointer:
    path = pathlib.Path(tmp) / "ckpt"
    checkpointer.save(path, {"w": jnp.ones(2)})
    checkpointer.wait_until_finished()
    try:  # a second save to the same path is refused
        checkpointer.save(path, {"w": jnp.zeros(2)})
    except ValueError as err:
        print("save again:", str(err).replace(tmp, "<tmp>"))
        save_error = err
    checkpointer.save(path, {"w": jnp.zeros(2)}, force=True)  # replace it on purpose
    assert isinstance(save_error, ValueError)

    try:  # the target decides the shapes, and they must match what was saved
        checkpointer.restore(path, {"w": jax.ShapeDtypeStruct((3,), jnp.float32)})
    except ValueError as err:
        print("wrong shape:", str(err).split(".")[0])
        shape_error = err
    # Orbax 0.12.8 abandons the metadata read that runs beside a failed restore, and Python warns
    # whenever those never-started coroutines are garbage-collected: collect them here, on purpose.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "coroutine .* was never awaited", RuntimeWarning)
        gc.collect()
    restored = checkpointer.restore(path, {"w": jax.ShapeDtypeStruct((2,), jnp.bfloat16)})
assert isinstance(shape_error, ValueError) and "not compatible" in str(shape_error)
print("after force=True, into a bfloat16 target:", restored["w"], restored["w"].dtype)
assert restored["w"].dtype == jnp.bfloat16  # a different dtype is converted, not refused
assert jnp.array_equal(restored["w"], jnp.zeros(2))
