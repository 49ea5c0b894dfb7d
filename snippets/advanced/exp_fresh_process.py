"""Serialize an exported function to bytes and call it in a fresh process that never sees its source."""
import pathlib
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


exported = export.export(jax.jit(mlp))(jax.ShapeDtypeStruct(export.symbolic_shape("b, 4"), jnp.float32))
blob = exported.serialize()  # a bytearray (flatbuffers format)
print(type(blob).__name__, len(blob), "bytes")

# The child process imports jax and numpy only: no mlp, no weights, no source file.
child = textwrap.dedent("""
    import sys, jax, numpy as np
    from jax import export
    exp = export.deserialize(bytearray(open(sys.argv[1] + "/mlp.jax", "rb").read()))
    for n in (3, 5):
        x = np.arange(n * 4, dtype=np.float32).reshape(n, 4) / 10
        np.save(f"{sys.argv[1]}/y{n}.npy", np.asarray(exp.call(x)))
    print("child:", exp.fun_name, exp.in_avals, jax.__version__)
""")
with tempfile.TemporaryDirectory() as tmp:
    pathlib.Path(tmp, "mlp.jax").write_bytes(blob)
    run = subprocess.run([sys.executable, "-c", child, tmp], capture_output=True, text=True)
    print(run.stdout.strip())
    assert run.returncode == 0 and run.stderr == "", run.stderr
    for n in (3, 5):
        x = np.arange(n * 4, dtype=np.float32).reshape(n, 4) / 10
        from_child = np.load(f"{tmp}/y{n}.npy")
        print(n, from_child.shape, np.abs(from_child - mlp(x)).max())
        assert from_child.shape == (n, 2) and np.allclose(from_child, mlp(x), atol=1e-6)
