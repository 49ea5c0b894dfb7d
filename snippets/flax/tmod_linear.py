"""Copy a PyTorch nn.Linear into an nnx.Linear: transpose the weight, copy the bias."""
import jax
import jax.numpy as jnp
import numpy as np
import torch
from flax import nnx

# Exact float32 products on every backend, for the comparison: by default a TPU multiplies float32
# in one bfloat16 pass and an A100 or H100 in TF32, which would outweigh the differences compared here.
jax.config.update("jax_default_matmul_precision", "highest")

torch.manual_seed(0)
layer_t = torch.nn.Linear(4, 3)  # weight: (out, in) = (3, 4)
layer_j = nnx.Linear(4, 3, rngs=nnx.Rngs(0))  # kernel: (in, out) = (4, 3)
print("torch weight", tuple(layer_t.weight.shape), "| nnx kernel", layer_j.kernel.shape)

# Write into the existing variables with [...]; the shapes must already match.
layer_j.kernel[...] = jnp.asarray(layer_t.weight.detach().numpy().T)
layer_j.bias[...] = jnp.asarray(layer_t.bias.detach().numpy())

x = np.random.default_rng(0).normal(size=(2, 4)).astype(np.float32)
with torch.no_grad():
    y_t = layer_t(torch.from_numpy(x)).numpy()
y_j = np.asarray(layer_j(jnp.asarray(x)))
tol = 1e-6
print(f"max |torch - nnx| = {np.abs(y_t - y_j).max():.1e} (tolerance {tol:.0e})")
assert layer_j.kernel.shape == tuple(layer_t.weight.shape)[::-1]
assert np.allclose(y_t, y_j, atol=tol)

# Without the transpose the shapes do not fit, and the assignment refuses...
try:
    layer_j.kernel[...] = jnp.asarray(layer_t.weight.detach().numpy())
    refused = None
except ValueError as err:
    refused = err
print("untransposed copy:", refused)
assert refused is not None
# ...but [...] = broadcasts like NumPy: a broadcastable wrong shape goes in silently.
layer_j.kernel[...] = jnp.arange(3.0)
print("kernel after writing a (3,) array:", layer_j.kernel.shape)
assert layer_j.kernel.shape == (4, 3)
