"""PyTorch's inference fast path: which encoder calls take it, and what it changes in the output."""
import warnings

import torch
import torch.nn as nn
from torch.utils._python_dispatch import TorchDispatchMode


class AtenOps(TorchDispatchMode):
    """Records the ATen operators that run inside the with block."""

    def __init__(self):
        super().__init__()
        self.names = set()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.names.add(str(func.overloadpacket))
        return func(*args, **(kwargs or {}))


def run(module, *args, **kwargs):
    with AtenOps() as ops:
        out = module(*args, **kwargs)
    return out, "fused" if "aten._transformer_encoder_layer_fwd" in ops.names else "step by step"


torch.manual_seed(0)
D, HEADS, T, B = 32, 4, 6, 2
layer = nn.TransformerEncoderLayer(D, HEADS, batch_first=True).eval()  # the fast path needs batch_first=True
x = torch.randn(B, T, D)
with torch.no_grad():
    y_fast, path_fast = run(layer, x)
    torch.backends.mha.set_fastpath_enabled(False)  # PyTorch's switch for the fast path
    y_slow, path_slow = run(layer, x)
    torch.backends.mha.set_fastpath_enabled(True)
y_grad, path_grad = run(layer, x)  # autograd on and parameters that require grad: no fast path
gap = (y_fast - y_slow).abs().max().item()
print(f"eval, no_grad: {path_fast} | fast path disabled: {path_slow} | grad enabled: {path_grad}")
print(f"fused vs step by step: max |difference| = {gap:.1e}")
assert (path_fast, path_slow, path_grad) == ("fused", "step by step", "step by step")
assert gap < 1e-5 and torch.equal(y_grad.detach(), y_slow)

# nn.TransformerEncoder goes further: in the same conditions, with a padding mask, it packs the
# sequences into a nested tensor and pads the output back with zeros.
encoder = nn.TransformerEncoder(layer, num_layers=1)  # a copy of layer: the same weights
padding = torch.arange(T)[None, :] >= torch.tensor([[T], [4]])  # sequence 1 ends in 2 padding positions
with torch.no_grad(), warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="The PyTorch API of nested tensors")  # a prototype notice
    y_enc = encoder(x, src_key_padding_mask=padding)
    y_layer = layer(x, src_key_padding_mask=padding)
print("encoder, padded positions:", y_enc[1, 4:].abs().max().item(),
      "| layer, padded positions: max |y| =", round(y_layer[1, 4:].abs().max().item(), 2))
assert torch.all(y_enc[1, 4:] == 0) and y_layer[1, 4:].abs().max() > 0.1
assert (y_enc[~padding] - y_layer[~padding]).abs().max() < 1e-5  # the real positions agree
