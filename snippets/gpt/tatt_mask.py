"""Mask polarity: PyTorch's True means "masked out", Flax's and jax.nn's True means "attend"."""
import numpy as np
import jax
import jax.numpy as jnp
import torch
import torch.nn as nn
from flax import nnx

jax.config.update("jax_default_matmul_precision", "highest")  # a comparison setting: float32 products

torch.manual_seed(0)
E, HEADS, T, B = 32, 4, 6, 2
ref = nn.MultiheadAttention(E, HEADS, batch_first=True).eval()
with torch.no_grad():
    ref.in_proj_bias.normal_()
    ref.out_proj.bias.normal_()
mha = nnx.MultiHeadAttention(HEADS, E, decode=False, rngs=nnx.Rngs(0))
for i, proj in enumerate((mha.query, mha.key, mha.value)):  # the layout of the first section
    rows = slice(i * E, (i + 1) * E)
    proj.kernel[...] = ref.in_proj_weight.detach().numpy()[rows].T.reshape(E, HEADS, E // HEADS)
    proj.bias[...] = ref.in_proj_bias.detach().numpy()[rows].reshape(HEADS, E // HEADS)
mha.out.kernel[...] = ref.out_proj.weight.detach().numpy().T.reshape(HEADS, E // HEADS, E)
mha.out.bias[...] = ref.out_proj.bias.detach().numpy()

x = torch.randn(B, T, E)
lengths = torch.tensor([6, 4])  # the second sequence ends in 2 padding positions
key_padding_mask = torch.arange(T)[None, :] >= lengths[:, None]  # (B, T): True = padding, ignored
attn_mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)  # (T, T): True = not allowed
with torch.no_grad():
    y_ref = ref(x, x, x, key_padding_mask=key_padding_mask, attn_mask=attn_mask)[0].numpy()

xj = jnp.asarray(x.numpy())
# PyTorch's two masks merged as PyTorch merges them: a key is out if either mask says so. (B, 1, T, T)
kpm, causal = jnp.asarray(key_padding_mask.numpy()), jnp.asarray(attn_mask.numpy())
blocked = kpm[:, None, None, :] | causal[None, None]
y_naive = np.asarray(mha(xj, mask=blocked))  # passed as they are: True now means "attend"
y_fixed = np.asarray(mha(xj, mask=~blocked))  # inverted: True = may attend
valid = ~kpm  # the Flax helpers build the same mask from "valid" flags
helpers = nnx.combine_masks(nnx.make_attention_mask(jnp.ones_like(valid), valid), nnx.make_causal_mask(valid))

for query in (2, 5):  # the causal mask shows in row 2, the padding in row 5
    print(f"sequence 1, query {query}: PyTorch True = masked out {blocked[1, 0, query].astype(int)}"
          f" | Flax True = attend {(~blocked)[1, 0, query].astype(int)}")
gap_naive, gap_fixed = np.abs(y_naive - y_ref).max(), np.abs(y_fixed - y_ref).max()
print(f"PyTorch's masks passed as they are: max |y - y_torch| = {gap_naive:.2f}")
print(f"masks inverted with ~:              max |y - y_torch| = {gap_fixed:.1e}")
assert gap_naive > 0.1 and gap_fixed < 1e-5
assert helpers.dtype == jnp.float32 and bool(jnp.all(helpers.astype(bool) == ~blocked))
# A float mask is added to the logits: PyTorch's causal helper writes -inf where the boolean mask says True.
float_mask = nn.Transformer.generate_square_subsequent_mask(T)
print("generate_square_subsequent_mask, row 2:", float_mask[2].tolist())
assert torch.equal(torch.isinf(float_mask), attn_mask)

# A query with no key left (a sequence of padding only): PyTorch's softmax over -inf gives NaN; JAX
# writes a large finite negative number instead, so the row weighs every key alike and stays finite.
with torch.no_grad():
    y_empty_ref = ref(x[:1], x[:1], x[:1], key_padding_mask=torch.ones(1, T, dtype=torch.bool))[0]
y_empty = np.asarray(mha(xj[:1], mask=jnp.zeros((1, 1, T, T), dtype=bool)))
print("no key to attend to: PyTorch NaN:", bool(torch.isnan(y_empty_ref).all()),
      "| Flax finite:", bool(np.isfinite(y_empty).all()))
assert torch.isnan(y_empty_ref).all() and np.isfinite(y_empty).all()
