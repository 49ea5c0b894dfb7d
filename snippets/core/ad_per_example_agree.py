"""torch.func.vmap(torch.func.grad(...)) and jax.vmap(jax.grad(...)) agree per example."""
import jax
import jax.numpy as jnp
import numpy as np
import torch
from torch.func import grad, vmap

rng = np.random.default_rng(0)
xs = rng.normal(size=(64, 16)).astype(np.float32)
ys = rng.normal(size=64).astype(np.float32)
w = rng.normal(size=16).astype(np.float32) / 4


def loss_torch(w, x, y):
    return (torch.tanh(x @ w) - y) ** 2


def loss_jax(w, x, y):
    return (jnp.tanh(x @ w) - y) ** 2


pt = vmap(grad(loss_torch), in_dims=(None, 0, 0))(*map(torch.from_numpy, (w, xs, ys))).numpy()
with jax.default_matmul_precision("highest"):  # float32 products (no TF32 or bf16), for this block only
    jx = np.asarray(jax.vmap(jax.grad(loss_jax), in_axes=(None, 0, 0))(w, xs, ys))

# Relative to the largest entry. Off the CPU tanh has its own approximation, and these gradients
# are not summed over the batch: a TPU v5e measured 7.0e-05, so the tolerance is 1e-3 there.
tol = 1e-5 if jax.default_backend() == "cpu" else 1e-3
rel = float(np.abs(pt - jx).max() / np.abs(jx).max())
print(f"per-example gradients: {jx.shape}, max |torch - jax| / largest = {rel:.1e}, "
      f"tolerance on {jax.default_backend()}: {tol:.0e}")
assert pt.shape == jx.shape == (64, 16)
assert rel < tol
