"""Ship a compiled program: serialize it in one process, then load and run it in a fresh one without its source."""
import os
import subprocess
import sys
import tempfile

import numpy as np

# Two processes, one after the other, on the default backend: this one starts no JAX backend of its own,
# so each of them can open the device (a TPU chip, for one, is held by a single process at a time).
BUILD = """
import pickle, sys
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
with open(sys.argv[1], "wb") as f:
    # Treedefs pickle; the arrays go as NumPy arrays.
    pickle.dump((payload, in_tree, out_tree, jax.device_get(params), np.asarray(x)), f)
np.save(sys.argv[2], np.asarray(compiled(params, x)["logits"]))
print(f"{jax.default_backend()}: serialized {type(payload).__name__}; input tree {in_tree}")  # its length varies
"""

LOAD = """
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
print(type(loaded).__name__, out["logits"].shape, "XLA compilations:", len(compiles), "| on", jax.default_backend())
"""

with tempfile.TemporaryDirectory() as tmp:
    blob = os.path.join(tmp, "predict.pkl")
    built, loaded = os.path.join(tmp, "built.npy"), os.path.join(tmp, "loaded.npy")
    out = subprocess.run([sys.executable, "-c", BUILD, blob, built], check=True,
                         capture_output=True, text=True).stdout
    print("process 1:", out.strip())
    out = subprocess.run([sys.executable, "-c", LOAD, blob, loaded], check=True,
                         capture_output=True, text=True).stdout
    print("process 2:", out.strip())
    same = np.array_equal(np.load(loaded), np.load(built))

import jax  # only now, after both children ended: until then the device was theirs to open

print("same result in both processes:", same, "| this process's backend:", jax.default_backend())
assert jax.default_backend() in out  # a serialized executable loads on the platform it was built for
assert out.startswith("Compiled (2, 3) XLA compilations: 0 |")  # loaded and run, never compiled
assert same  # the same executable gives the same bits
