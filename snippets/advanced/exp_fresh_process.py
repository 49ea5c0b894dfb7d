"""Serialize an exported function to bytes and call it in a fresh process that never sees its source."""
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import textwrap

import jax
import jax.numpy as jnp
import numpy as np
from jax import export

rng = np.random.default_rng(0)
w1, b1 = rng.normal(size=(4, 8)).astype(np.float32), np.zeros(8, np.float32)
w2, b2 = rng.normal(size=(8, 2)).astype(np.float32), np.full(2, 0.5, np.float32)


def mlp(x):
    return jnp.tanh(x @ w1 + b1) @ w2 + b2


# Exported for the CPU, where the child below runs it (an export runs only on the platforms it names).
spec = jax.ShapeDtypeStruct(export.symbolic_shape("b, 4"), jnp.float32)
exported = export.export(jax.jit(mlp), platforms=("cpu",))(spec)
blob = exported.serialize()  # a bytearray (flatbuffers format)
print(type(blob).__name__, len(blob), "bytes, for", exported.platforms)

# The child process imports jax and numpy only: no mlp, no weights, no source file.
child = textwrap.dedent("""
    import pathlib, sys, jax, numpy as np
    from jax import export
    exp = export.deserialize(bytearray(pathlib.Path(sys.argv[1], "mlp.jax").read_bytes()))
    for n in (3, 5):
        x = np.arange(n * 4, dtype=np.float32).reshape(n, 4) / 10
        np.save(f"{sys.argv[1]}/y{n}.npy", np.asarray(exp.call(x)))
    print("child:", jax.default_backend(), exp.fun_name, exp.in_avals, jax.__version__)
""")
env = dict(os.environ, JAX_PLATFORMS="cpu")  # CPU by design: this process may hold the one GPU or TPU
with tempfile.TemporaryDirectory() as tmp:
    pathlib.Path(tmp, "mlp.jax").write_bytes(blob)
    run = subprocess.run([sys.executable, "-c", child, tmp], env=env, capture_output=True, text=True)
    print(run.stdout.strip())
    # A TPU VM without transparent hugepages adds one warning to any `import jax`; nothing else may appear.
    stderr = re.sub(r".*Transparent hugepages are not enabled.*\n\s*warnings\.warn\(\n", "", run.stderr)
    assert run.returncode == 0 and stderr == "", run.stderr
    for n in (3, 5):
        x = np.arange(n * 4, dtype=np.float32).reshape(n, 4) / 10
        from_child = np.load(f"{tmp}/y{n}.npy")
        expected = np.tanh(x @ w1 + b1) @ w2 + b2  # mlp's formula in NumPy, float32 on the host
        print(n, from_child.shape, np.abs(from_child - expected).max())
        assert from_child.shape == (n, 2) and np.allclose(from_child, expected, atol=1e-6)
