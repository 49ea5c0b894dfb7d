"""Flatten before a Linear: torch flattens (C, H, W), NHWC flattens (H, W, C); fix the model or the kernel."""
import jax
import jax.numpy as jnp
import numpy as np
import torch

# Exact float32 products on every backend, for the comparison: by default a TPU multiplies float32
# in one bfloat16 pass and an A100 or H100 in TF32, which would outweigh the differences compared here.
jax.config.update("jax_default_matmul_precision", "highest")

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
err = {}
for name, y in [("plain reshape, w.T", naive), ("transpose to NCHW, then reshape", fix_model),
                ("plain reshape, permuted kernel", fix_kernel)]:
    err[name] = np.abs(y_t - np.asarray(y)).max()
    print(f"{name:32s} max |torch - jax| = {err[name]:.1e}")
print(f"tolerance: {tol:.0e}")
assert err["plain reshape, w.T"] > 0.1  # same shapes, no error, wrong numbers: far outside the tolerance
assert err["transpose to NCHW, then reshape"] < tol and err["plain reshape, permuted kernel"] < tol
