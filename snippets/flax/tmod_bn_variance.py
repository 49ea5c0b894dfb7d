"""nnx.BatchNorm's default one-pass variance loses digits when the mean is large; use_fast_variance=False."""
import jax.numpy as jnp
import numpy as np
import torch
from flax import nnx

x = np.random.default_rng(0).normal(300.0, 1.0, size=(4, 3, 5, 5)).astype(np.float32)  # mean >> std
x64 = x.astype(np.float64)  # reference in float64
ref = (x64 - x64.mean((0, 2, 3), keepdims=True)) / np.sqrt(x64.var((0, 2, 3), keepdims=True) + 1e-5)
ref = ref.transpose(0, 2, 3, 1)  # NHWC

with torch.no_grad():
    y_t = torch.nn.BatchNorm2d(3)(torch.from_numpy(x)).numpy().transpose(0, 2, 3, 1)
err = {"torch": np.abs(y_t - ref).max()}
for fast in (True, False):
    bn = nnx.BatchNorm(3, use_fast_variance=fast, rngs=nnx.Rngs(0))
    y_j = np.asarray(bn(jnp.asarray(x.transpose(0, 2, 3, 1))))
    err[f"nnx use_fast_variance={fast}"] = np.abs(y_j - ref).max()
print(f"input mean {x.mean():.1f}, standard deviation {x.std():.2f}")
for name, e in err.items():
    print(f"{name:28s} max error vs float64: {e:.1e}")

# The default computes E[x^2] - E[x]^2 in float32; at mean 300 that cancels most digits.
assert err["nnx use_fast_variance=True"] > 100 * err["nnx use_fast_variance=False"]
assert err["nnx use_fast_variance=False"] < 1e-3 and err["torch"] < 1e-3
