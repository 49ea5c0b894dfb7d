"""PyTorch: nn.MultiheadAttention's parameters, its sequence-first layout and its averaged weights."""
import torch
import torch.nn as nn

torch.manual_seed(0)
E, HEADS, T, B = 32, 4, 6, 2  # embed_dim, num_heads, sequence length, batch
mha = nn.MultiheadAttention(E, HEADS).eval()  # defaults: batch_first=False, bias=True, dropout=0.0
with torch.no_grad():  # both biases start at zero: give them values, so a port that drops them fails
    mha.in_proj_bias.normal_()
    mha.out_proj.bias.normal_()
for name, p in mha.named_parameters():
    print(f"{name:16s} {tuple(p.shape)}")

x = torch.randn(T, B, E)  # (sequence, batch, feature): the layout batch_first=False expects
with torch.no_grad():
    y, w = mha(x, x, x)  # need_weights=True and average_attn_weights=True by default
    _, w_heads = mha(x, x, x, average_attn_weights=False)
    y_sdpa, no_w = mha(x, x, x, need_weights=False)  # the scaled_dot_product_attention path
    xb = x.transpose(0, 1)  # (batch, sequence, feature), passed to the same layer by mistake
    y_mixed, _ = mha(xb, xb, xb)
print("output", tuple(y.shape), "| weights", tuple(w.shape), "| per head", tuple(w_heads.shape))
assert mha.in_proj_weight.shape == (3 * E, E) and mha.out_proj.weight.shape == (E, E)
assert y.shape == (T, B, E) and w.shape == (B, T, T) and w_heads.shape == (B, HEADS, T, T)
assert torch.allclose(w, w_heads.mean(dim=1), atol=1e-6)  # the default weights: the mean over heads
assert no_w is None and torch.allclose(y, y_sdpa, atol=1e-5)

# A (batch, sequence, feature) input runs without an error: the layer takes the 2 batch rows
# for 2 positions and the 6 positions for 6 sequences, and mixes the two examples.
gap = (y_mixed.transpose(0, 1) - y).abs().max().item()
print(f"batch-first input to a sequence-first layer: max |error| = {gap:.2f}")
assert y_mixed.shape == xb.shape and gap > 0.1
