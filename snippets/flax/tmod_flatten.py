"""Flatten before a Linear: torch flattens (C, H, W), NHWC flattens (H, W, C); fix the model or the kernel."""
import jax.numpy as jnp
import numpy as np
import torch

C, H, W, OUT = 8, 4, 4, 10
torch.manual_seed(0)
linear = torch.nn.Linear(C * H * W, OUT)
feat = np.random.default_rng(0).normal(size=(2, C, H, W)).astype(np.float32)  # a conv output, NCHW
with torch.no_grad():
    y_t = linear(torch.nn.Flatten()(torch.from_numpy(feat))).numpy()

w = linear.weight.detach().numpy()  # (OUT, C*H*W), columns in (C, H, W) order
b = jnp.asarray(linear.bias.detach().numpy())
feat_j = jnp.asarray(feat.transpose(0, 2, 3, 1))  # what the NNX model has: (N, H, W, C)

naive = feat_j.reshape(2, -1) @ w.T + b  # plain w.T, plain reshape: wrong order
fix_model = feat_j.transpose(0, 3, 1, 2).reshape(2, -1) @ w.T + b  # flatten in (C, H, W) order
kernel_hwc = w.reshape(OUT, C, H, W).transpose(2, 3, 1, 0).reshape(H * W * C, OUT)  # permute rows once
fix_kernel = feat_j.reshape(2, -1) @ kernel_hwc + b
tol = 1e-5
for name, y in [("plain reshape, w.T", naive), ("transpose to NCHW, then reshape", fix_model),
                ("plain reshape, permuted kernel", fix_kernel)]:
    print(f"{name:32s} max |torch - jax| = {np.abs(y_t - np.asarray(y)).max():.1e}")
assert not np.allclose(y_t, naive, atol=tol)  # same shapes, no error, wrong numbers
assert np.allclose(y_t, fix_model, atol=tol) and np.allclose(y_t, fix_kernel, atol=tol)
