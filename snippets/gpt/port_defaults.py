"""The defaults that differ: LayerNorm epsilon, GELU's approximation, Linear and Embed init."""
import numpy as np
import jax
import jax.numpy as jnp
import torch
from flax import nnx
from torch import nn

torch.manual_seed(0)
torch.set_grad_enabled(False)  # no autograd needed: only forward values and weights
x = np.random.default_rng(0).normal(size=(8, 64)).astype(np.float32)

# LayerNorm: NNX's epsilon is 1e-6, PyTorch's eps is 1e-5 (both start at scale 1, bias 0).
for scale in (1.0, 0.01):  # activations of ordinary size, then tiny ones
    xs = x * scale
    ref = nn.LayerNorm(64)(torch.from_numpy(xs)).numpy()
    default = np.asarray(nnx.LayerNorm(64, rngs=nnx.Rngs(0))(xs))
    matched = np.asarray(nnx.LayerNorm(64, epsilon=1e-5, rngs=nnx.Rngs(0))(xs))
    gap, fixed = np.abs(default - ref).max(), np.abs(matched - ref).max()
    print(f"LayerNorm, input std {scale}: default eps {gap:.1e}, epsilon=1e-5 {fixed:.1e}")
    assert fixed < 1e-5 and gap > 10 * fixed
assert gap > 1e-2  # at std 0.01 the epsilon changes the output in the second digit

# GELU: nnx.gelu defaults to the tanh approximation; nn.GELU() is exact (erf).
one = jnp.float32(1.0)
g_nnx, g_exact = float(nnx.gelu(one)), float(nnx.gelu(one, approximate=False))
g_torch, g_torch_tanh = float(nn.GELU()(torch.tensor(1.0))), float(nn.GELU("tanh")(torch.tensor(1.0)))
print(f"GELU(1): nnx.gelu {g_nnx:.5f}, approximate=False {g_exact:.5f}, "
      f"nn.GELU() {g_torch:.5f}, nn.GELU('tanh') {g_torch_tanh:.5f}")
# Off the CPU, erf and tanh have their own approximations (a TPU's differ by ~1e-6 to 1e-5 relative).
tol = 1e-6 if jax.default_backend() == "cpu" else 2e-5
gaps = abs(g_exact - g_torch), abs(g_nnx - g_torch_tanh)
print(f"gaps to PyTorch: exact {gaps[0]:.1e}, tanh {gaps[1]:.1e}; tolerance on {jax.default_backend()}: {tol:.0e}")
assert max(gaps) < tol
assert abs(g_nnx - g_torch) > 1e-4

# Initial weights of a 256 x 256 Linear and a 1024 x 64 embedding table.
lin_nnx, lin_torch = nnx.Linear(256, 256, rngs=nnx.Rngs(0)), nn.Linear(256, 256)
emb_nnx, emb_torch = nnx.Embed(1024, 64, rngs=nnx.Rngs(0)), nn.Embedding(1024, 64)
k_nnx, k_torch = float(lin_nnx.kernel[...].std()), float(lin_torch.weight.std())
b_nnx, b_torch = float(jnp.abs(lin_nnx.bias[...]).max()), float(lin_torch.bias.abs().max())
e_nnx, e_torch = float(emb_nnx.embedding[...].std()), float(emb_torch.weight.std())
print(f"Linear kernel std: NNX {k_nnx:.3f}, PyTorch {k_torch:.3f}")
print(f"Linear bias max |b|: NNX {b_nnx:.3f}, PyTorch {b_torch:.3f}")
print(f"Embed std: NNX {e_nnx:.3f}, PyTorch {e_torch:.3f}")
assert abs(k_nnx - 1 / 256**0.5) < 0.005  # lecun normal: std 1/sqrt(fan_in)
assert abs(k_torch - 1 / (3 * 256) ** 0.5) < 0.005  # uniform(-1/sqrt(fan_in), 1/sqrt(fan_in))
assert b_nnx == 0.0 and b_torch > 0.05  # zeros against a uniform bias
assert abs(e_nnx - 1 / 64**0.5) < 0.01 and abs(e_torch - 1.0) < 0.05  # 1/sqrt(features) vs N(0, 1)
