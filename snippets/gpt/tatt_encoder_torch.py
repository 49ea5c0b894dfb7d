"""PyTorch: nn.TransformerEncoderLayer's defaults, and its output in eval and train mode."""
import torch
import torch.nn as nn

torch.manual_seed(0)
D, HEADS, T, B = 32, 4, 6, 2
layer = nn.TransformerEncoderLayer(D, HEADS)  # every other argument at its default
print(f"dim_feedforward={layer.linear1.out_features}, dropout={layer.dropout.p}, "
      f"activation={layer.activation.__name__}, layer_norm_eps={layer.norm1.eps}, "
      f"norm_first={layer.norm_first}, batch_first={layer.self_attn.batch_first}, "
      f"training={layer.training}")
assert (layer.linear1.out_features, layer.dropout.p, layer.norm1.eps) == (2048, 0.1, 1e-5)
assert layer.activation is torch.nn.functional.relu
assert not layer.norm_first and not layer.self_attn.batch_first
assert layer.training  # a new module starts in train mode: dropout is on
with torch.no_grad():  # biases start at 0 and LayerNorm weights at 1: move them, as training would
    for p in layer.parameters():
        if p.dim() == 1:
            p.add_(0.1 * torch.randn_like(p))

x = torch.randn(T, B, D)  # (sequence, batch, feature)
with torch.no_grad():
    y_train = layer(x)  # dropout 0.1 in attention, after ReLU and on both residual branches
    y_eval = layer.eval()(x)  # dropout off
print("output", tuple(y_eval.shape), "| eval mode:", [round(v, 4) for v in y_eval[0, 0, :4].tolist()])
gap = (y_train - y_eval).abs().max().item()
print(f"train mode vs eval mode: max |difference| = {gap:.2f}")
assert y_eval.shape == (T, B, D) and gap > 0.1
