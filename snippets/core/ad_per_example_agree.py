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
with jax.default_matmul_precision("float32"):  # no TF32 shortcut on GPUs, for this block only
    jx = np.asarray(jax.vmap(jax.grad(loss_jax), in_axes=(None, 0, 0))(w, xs, ys))

tol = 1e-5  # relative to the largest entry
rel = float(np.abs(pt - jx).max() / np.abs(jx).max())
print(f"per-example gradients: {jx.shape}, max |torch - jax| / largest = {rel:.1e}, tolerance {tol:.0e}")
assert pt.shape == jx.shape == (64, 16)
assert rel < tol
