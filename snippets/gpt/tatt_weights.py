"""need_weights: PyTorch's attention weights, by hand per head and from nnx.MultiHeadAttention."""
import numpy as np
import jax
import jax.numpy as jnp
import torch
import torch.nn as nn
from flax import nnx

jax.config.update("jax_default_matmul_precision", "highest")  # a comparison setting: float32 products

torch.manual_seed(0)
E, HEADS, T, B = 32, 4, 6, 2
HEAD_DIM = E // HEADS
ref = nn.MultiheadAttention(E, HEADS, batch_first=True).eval()  # batch-first, like Flax
with torch.no_grad():
    ref.in_proj_bias.normal_()
    ref.out_proj.bias.normal_()
x = torch.randn(B, T, E)
with torch.no_grad():
    _, w_mean = ref(x, x, x)  # the default: (batch, query, key), averaged over the heads
    _, w_heads = ref(x, x, x, average_attn_weights=False)  # (batch, heads, query, key)

# By hand: split in_proj into q, k, v; give each head its HEAD_DIM features; scale by 1/sqrt(HEAD_DIM).
xj = jnp.asarray(x.numpy())
wq, wk, wv = np.split(ref.in_proj_weight.detach().numpy(), 3)  # (E, E) each, (out, in)
bq, bk, bv = np.split(ref.in_proj_bias.detach().numpy(), 3)
q = (xj @ wq.T + bq).reshape(B, T, HEADS, HEAD_DIM)  # head h owns features h*HEAD_DIM ... (h+1)*HEAD_DIM-1
k = (xj @ wk.T + bk).reshape(B, T, HEADS, HEAD_DIM)
logits = jnp.einsum("bqhd,bkhd->bhqk", q, k)
by_hand = jax.nn.softmax(logits / np.sqrt(HEAD_DIM), axis=-1)
whole_width = jax.nn.softmax(logits / np.sqrt(E), axis=-1)  # the scale of a one-head layer

# Flax: sow_weights=True stores the weights as an nnx.Intermediate; nnx.capture collects them.
mha = nnx.MultiHeadAttention(HEADS, E, decode=False, rngs=nnx.Rngs(0))
for proj, w_, b_ in ((mha.query, wq, bq), (mha.key, wk, bk), (mha.value, wv, bv)):
    proj.kernel[...] = w_.T.reshape(E, HEADS, HEAD_DIM)
    proj.bias[...] = b_.reshape(HEADS, HEAD_DIM)
mha.out.kernel[...] = ref.out_proj.weight.detach().numpy().T.reshape(HEADS, HEAD_DIM, E)
mha.out.bias[...] = ref.out_proj.bias.detach().numpy()
_, sown = nnx.capture(mha, nnx.Intermediate)(xj, sow_weights=True)
w_nnx = np.asarray(sown["attention_weights"].get_value()[0])  # a tuple: one entry per call
print("PyTorch weights", tuple(w_mean.shape), "per head", tuple(w_heads.shape), "| NNX", w_nnx.shape)

for name, w_, torch_w in (("by hand, per head", by_hand, w_heads), ("NNX, per head", w_nnx, w_heads),
                          ("NNX, mean over heads", w_nnx.mean(axis=1), w_mean),
                          ("scaled by 1/sqrt(E)", whole_width, w_heads)):
    print(f"{name:21s} max |w - w_torch| = {np.abs(np.asarray(w_) - torch_w.numpy()).max():.1e}")
assert np.abs(by_hand - w_heads.numpy()).max() < 1e-5
assert np.abs(w_nnx - w_heads.numpy()).max() < 1e-5
assert np.abs(w_nnx.mean(axis=1) - w_mean.numpy()).max() < 1e-5
assert np.abs(whole_width - w_heads.numpy()).max() > 1e-2
