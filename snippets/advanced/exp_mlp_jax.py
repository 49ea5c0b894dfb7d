"""jax.export: export the same MLP with a symbolic batch dimension and call it for two batch sizes."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import export

rng = np.random.default_rng(0)  # the same weights as the PyTorch tab
w1, b1 = rng.normal(size=(4, 8)).astype(np.float32), np.zeros(8, np.float32)
w2, b2 = rng.normal(size=(8, 2)).astype(np.float32), np.full(2, 0.5, np.float32)


def mlp(x):  # closes over the weights: they become constants of the program
    return jnp.tanh(x @ w1 + b1) @ w2 + b2


shape = export.symbolic_shape("b, 4")  # "b" stands for any batch size
spec = jax.ShapeDtypeStruct(shape, jnp.float32)
with jax.default_matmul_precision("float32"):  # fixed in the export: full float32, no TF32 on a GPU
    exported = export.export(jax.jit(mlp))(spec)
print(exported.in_avals, "->", exported.out_avals)
# The output keeps the input's batch size b.
assert [str(a) for a in exported.in_avals + exported.out_avals] == ["float32[b,4]", "float32[b,2]"]

# float32 rounding on the CPU; off it, tanh has its own approximation (a TPU's differs by ~1e-6 to 1e-5).
tol = 1e-5 if jax.default_backend() == "cpu" else 1e-4
for n in (3, 5):  # two batch sizes, one exported program
    x = np.arange(n * 4, dtype=np.float32).reshape(n, 4) / 10
    y = np.asarray(exported.call(x))
    expected = np.tanh(x @ w1 + b1) @ w2 + b2
    print(n, y.shape, y[0], f"| max gap to NumPy {np.abs(y - expected).max():.1e}")
    assert np.allclose(y, expected, atol=tol)
