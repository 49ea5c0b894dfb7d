"""Ship a compiled program: serialize it, then load and run it in a fresh process without its source."""
import os
import pickle
import subprocess
import sys
import tempfile

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import serialize_executable


def predict(params, x):
    w, b = params["w"], params["b"]
    return {"logits": jnp.tanh(x @ w + b)}


k1, k2 = jax.random.split(jax.random.key(0))
params = {"w": jax.random.normal(k1, (4, 3)), "b": jnp.zeros(3)}
x = jax.random.normal(k2, (2, 4))
compiled = jax.jit(predict).lower(params, x).compile()
payload, in_tree, out_tree = serialize_executable.serialize(compiled)  # bytes + two treedefs
print(f"serialized: {type(payload).__name__}; input tree {in_tree}")  # its length varies a little

CHILD = """
import pickle, sys
import jax
import numpy as np
from jax.experimental import serialize_executable

compiles = []  # XLA compilations in this process, as JAX's monitoring reports them
jax.monitoring.register_event_duration_secs_listener(
    lambda event, secs, **kw: compiles.append(event)
    if event == "/jax/core/compile/backend_compile_duration" else None)

payload, in_tree, out_tree, params, x = pickle.load(open(sys.argv[1], "rb"))
# No predict() here: the program comes from the file, for this process's devices.
loaded = serialize_executable.deserialize_and_load(payload, in_tree, out_tree)
out = loaded(params, x)
np.save(sys.argv[2], np.asarray(out["logits"]))
print(type(loaded).__name__, out["logits"].shape, "XLA compilations:", len(compiles))
"""

with tempfile.TemporaryDirectory() as tmp:
    blob, result = os.path.join(tmp, "predict.pkl"), os.path.join(tmp, "logits.npy")
    with open(blob, "wb") as f:
        # Treedefs pickle; the arrays go as NumPy arrays.
        pickle.dump((payload, in_tree, out_tree, jax.device_get(params), np.asarray(x)), f)
    out = subprocess.run([sys.executable, "-c", CHILD, blob, result], check=True,
                         capture_output=True, text=True).stdout
    print("child:", out.strip())
    child_logits = np.load(result)

here = np.asarray(compiled(params, x)["logits"])
print("same result as this process:", np.array_equal(child_logits, here))
assert out.strip() == "Compiled (2, 3) XLA compilations: 0"  # loaded and run, never compiled
assert np.array_equal(child_logits, here)  # the same executable gives the same bits
