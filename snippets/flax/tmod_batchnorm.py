"""BatchNorm in train mode: same outputs; running stats agree once momentum and variance bias are matched."""
import jax.numpy as jnp
import numpy as np
import torch
from flax import nnx

x = np.random.default_rng(0).normal(2.0, 3.0, size=(4, 3, 5, 5)).astype(np.float32)  # NCHW
n = 4 * 5 * 5  # values per channel in this batch
bn_t = torch.nn.BatchNorm2d(3)  # momentum=0.1: new = 0.9 * old + 0.1 * batch
bn_j = nnx.BatchNorm(3, momentum=0.9, rngs=nnx.Rngs(0))  # new = 0.9 * old + 0.1 * batch
bn_default = nnx.BatchNorm(3, rngs=nnx.Rngs(0))  # Flax default momentum=0.99
print("batch shape (N, C, H, W):", x.shape, "-> n =", n, "values per channel")
print("momentum: torch", bn_t.momentum, "| Flax default", bn_default.momentum)
print("epsilon:  torch", bn_t.eps, "| Flax default", bn_j.epsilon)
assert bn_t.eps == bn_j.epsilon
assert bn_t.training and bn_j.use_running_average is False  # both start in training mode

with torch.no_grad():
    y_t = bn_t(torch.from_numpy(x)).numpy().transpose(0, 2, 3, 1)  # NCHW -> NHWC
x_j = jnp.asarray(x.transpose(0, 2, 3, 1))
y_j, _ = bn_j(x_j), bn_default(x_j)  # one training step each
tol = 1e-5
print(f"outputs: max |torch - nnx| = {np.abs(y_t - np.asarray(y_j)).max():.1e} (tolerance {tol:.0e})")
assert np.allclose(y_t, y_j, atol=tol)  # both normalize with the biased batch variance

mean, biased, unbiased = x.mean((0, 2, 3)), x.var((0, 2, 3)), x.var((0, 2, 3), ddof=1)
mean_t, var_t = bn_t.running_mean.numpy(), bn_t.running_var.numpy()
mean_j, var_j = np.asarray(bn_j.mean[...]), np.asarray(bn_j.var[...])
print("running mean: torch", mean_t.round(4), "nnx", mean_j.round(4))
print("running mean, Flax default momentum:", np.asarray(bn_default.mean[...]).round(4))
assert np.allclose(mean_t, 0.1 * mean, atol=tol) and np.allclose(mean_j, mean_t, atol=tol)
assert np.allclose(np.asarray(bn_default.mean[...]), 0.01 * mean, atol=tol)  # 10 times slower

print("running var:  torch", var_t.round(4), "nnx", var_j.round(4))
assert np.allclose(var_t, 0.9 + 0.1 * unbiased, atol=tol)  # torch stores the unbiased variance
assert np.allclose(var_j, 0.9 + 0.1 * biased, atol=tol)  # Flax stores the biased variance
assert np.abs(var_t - var_j).min() > 100 * tol
var_j_fixed = 0.9 + (var_j - 0.9) * n / (n - 1)  # rescale the batch part by n / (n - 1)
print(f"after the n/(n-1) correction: max |torch - nnx| = {np.abs(var_t - var_j_fixed).max():.1e}")
assert np.allclose(var_t, var_j_fixed, atol=tol)
