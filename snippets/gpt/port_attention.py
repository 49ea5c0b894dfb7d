"""Causal self-attention: PyTorch's, the NNX one written out, and nnx.MultiHeadAttention agree."""
import numpy as np
import jax
import jax.numpy as jnp
import torch
import torch.nn as nn
import torch.nn.functional as F
from flax import nnx

jax.config.update("jax_default_matmul_precision", "highest")  # for the comparison: no TF32 (GPU), no bf16 pass (TPU)
torch.manual_seed(0)
D, HEADS = 64, 4


class TorchCausalSelfAttention(nn.Module):  # the section's PyTorch CausalSelfAttention
    def __init__(self, d, heads, dropout):
        super().__init__()
        self.heads, self.dropout = heads, dropout
        self.c_attn = nn.Linear(d, 3 * d)
        self.c_proj = nn.Linear(d, d)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.c_attn(x).split(d, dim=-1)
        q, k, v = (a.view(b, t, self.heads, d // self.heads).transpose(1, 2) for a in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True,
                                           dropout_p=self.dropout if self.training else 0.0)
        return self.drop(self.c_proj(y.transpose(1, 2).reshape(b, t, d)))


class CausalSelfAttention(nnx.Module):  # the section's NNX CausalSelfAttention
    def __init__(self, d, heads, dropout, *, rngs):
        self.heads = heads
        self.c_attn = nnx.Linear(d, 3 * d, rngs=rngs)
        self.c_proj = nnx.Linear(d, d, rngs=rngs)
        self.drop = nnx.Dropout(dropout, rngs=rngs)

    def __call__(self, x):
        b, t, d = x.shape
        q, k, v = jnp.split(self.c_attn(x), 3, axis=-1)
        q, k, v = (a.reshape(b, t, self.heads, d // self.heads) for a in (q, k, v))
        y = jax.nn.dot_product_attention(q, k, v, is_causal=True)  # (batch, time, heads, head_dim)
        return self.drop(self.c_proj(y.reshape(b, t, d)))


ref = TorchCausalSelfAttention(D, HEADS, 0.1).eval()
w = {name: jnp.asarray(p.detach().numpy()) for name, p in ref.state_dict().items()}
x = np.random.default_rng(0).normal(size=(2, 16, D)).astype(np.float32)
y_torch = ref(torch.from_numpy(x)).detach().numpy()

# 1. Written out: each Linear weight (out, in) becomes a kernel (in, out).
mine = CausalSelfAttention(D, HEADS, 0.1, rngs=nnx.Rngs(0))
mine.c_attn.kernel[...], mine.c_attn.bias[...] = w["c_attn.weight"].T, w["c_attn.bias"]
mine.c_proj.kernel[...], mine.c_proj.bias[...] = w["c_proj.weight"].T, w["c_proj.bias"]
mine.eval()  # dropout off, like ref.eval()
y_mine = np.asarray(mine(x))

# 2. nnx.MultiHeadAttention: kernels (in, heads, head_dim) and an out kernel (heads, head_dim, out).
mha = nnx.MultiHeadAttention(HEADS, D, decode=False, rngs=nnx.Rngs(0))
for i, proj in enumerate((mha.query, mha.key, mha.value)):  # c_attn rows: q, then k, then v
    rows = slice(i * D, (i + 1) * D)
    proj.kernel[...] = w["c_attn.weight"][rows].T.reshape(D, HEADS, D // HEADS)
    proj.bias[...] = w["c_attn.bias"][rows].reshape(HEADS, D // HEADS)
mha.out.kernel[...] = w["c_proj.weight"].T.reshape(HEADS, D // HEADS, D)
mha.out.bias[...] = w["c_proj.bias"]
print("c_attn.weight", w["c_attn.weight"].shape, "-> query/key/value kernel", mha.query.kernel.shape)
print("c_proj.weight", w["c_proj.weight"].shape, "-> out kernel", mha.out.kernel.shape)

y_causal = np.asarray(mha(x, is_causal=True))
y_mask = np.asarray(mha(x, mask=nnx.make_causal_mask(x[..., 0])))  # mask (batch, 1, time, time)
y_full = np.asarray(mha(x))  # neither: every position sees the future
for name, y in (("written out", y_mine), ("MHA is_causal", y_causal), ("MHA causal mask", y_mask)):
    gap = np.abs(y - y_torch).max()
    print(f"{name:16s} max |y - y_torch| = {gap:.1e}")
    assert gap < 1e-5
print("MHA without a mask: max |y - y_torch| =", f"{np.abs(y_full - y_torch).max():.1e}")
assert np.abs(y_full - y_torch).max() > 1e-2  # the default is not causal
assert np.abs(y_full - y_torch)[:, -1].max() < 1e-5  # the last position sees everything anyway

try:  # without decode=False, the constructor leaves the flag unset and the call refuses
    nnx.MultiHeadAttention(HEADS, D, rngs=nnx.Rngs(0))(x, is_causal=True)
    raised = False
except ValueError as error:
    raised = True
    print("without decode=False:", str(error).splitlines()[0])
assert raised
