"""Flax NNX: nn.MultiheadAttention's weights loaded into nnx.MultiHeadAttention give its output."""
import numpy as np
import jax
import jax.numpy as jnp
import torch
import torch.nn as nn
from flax import nnx

# A comparison setting, not a training default: float32 products, no TF32 (GPU) or one bfloat16 pass (TPU).
jax.config.update("jax_default_matmul_precision", "highest")


def load_torch_mha(mha, ref):
    """Copy nn.MultiheadAttention's parameters into nnx.MultiHeadAttention."""
    e, h = ref.embed_dim, ref.num_heads
    w = ref.in_proj_weight.detach().numpy()  # (3E, E): the query rows, then the key rows, then the value rows
    b = ref.in_proj_bias.detach().numpy()
    for i, proj in enumerate((mha.query, mha.key, mha.value)):
        rows = slice(i * e, (i + 1) * e)
        proj.kernel[...] = w[rows].T.reshape(e, h, e // h)  # (out, in) -> (in, heads, head_dim)
        proj.bias[...] = b[rows].reshape(h, e // h)
    mha.out.kernel[...] = ref.out_proj.weight.detach().numpy().T.reshape(h, e // h, e)
    mha.out.bias[...] = ref.out_proj.bias.detach().numpy()


torch.manual_seed(0)  # the PyTorch tab's layer and input
E, HEADS, T, B = 32, 4, 6, 2
ref = nn.MultiheadAttention(E, HEADS).eval()
with torch.no_grad():
    ref.in_proj_bias.normal_()
    ref.out_proj.bias.normal_()
x = torch.randn(T, B, E)  # (sequence, batch, feature)
with torch.no_grad():
    y_ref = ref(x, x, x)[0].numpy()

mha = nnx.MultiHeadAttention(HEADS, E, decode=False, rngs=nnx.Rngs(0))
load_torch_mha(mha, ref)
for name in ("query", "key", "value", "out"):
    print(f"{name:5s} kernel {getattr(mha, name).kernel.shape}, bias {getattr(mha, name).bias.shape}")

xb = jnp.asarray(x.numpy()).transpose(1, 0, 2)  # Flax is batch-first: (batch, sequence, feature)
y = np.asarray(mha(xb)).transpose(1, 0, 2)  # back to PyTorch's (sequence, batch, feature)
gap = np.abs(y - y_ref).max()
print(f"max |y - y_torch| = {gap:.1e}")
assert gap < 1e-5
