"""Flax NNX: nn.TransformerEncoderLayer ported with its defaults, and what each missed default costs."""
import numpy as np
import jax
import jax.numpy as jnp
import torch
import torch.nn as nn
from flax import nnx

jax.config.update("jax_default_matmul_precision", "highest")  # a comparison setting: float32 products


class TransformerEncoderLayer(nnx.Module):
    """nn.TransformerEncoderLayer in NNX, with PyTorch's defaults; batch-first like Flax."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=nnx.relu,
                 layer_norm_eps=1e-5, norm_first=False, *, rngs):
        self.self_attn = nnx.MultiHeadAttention(nhead, d_model, dropout_rate=dropout,
                                                broadcast_dropout=False, decode=False, rngs=rngs)
        self.linear1 = nnx.Linear(d_model, dim_feedforward, rngs=rngs)
        self.linear2 = nnx.Linear(dim_feedforward, d_model, rngs=rngs)
        self.norm1 = nnx.LayerNorm(d_model, epsilon=layer_norm_eps, rngs=rngs)  # Flax's default is 1e-6
        self.norm2 = nnx.LayerNorm(d_model, epsilon=layer_norm_eps, rngs=rngs)
        self.dropout, self.dropout1, self.dropout2 = (nnx.Dropout(dropout, rngs=rngs) for _ in range(3))
        self.activation, self.norm_first = activation, norm_first

    def _sa_block(self, x, mask):
        return self.dropout1(self.self_attn(x, mask=mask))

    def _ff_block(self, x):
        return self.dropout2(self.linear2(self.dropout(self.activation(self.linear1(x)))))

    def __call__(self, x, mask=None):  # x: (batch, sequence, d_model); mask: True = may attend
        if self.norm_first:  # pre-norm
            x = x + self._sa_block(self.norm1(x), mask)
            return x + self._ff_block(self.norm2(x))
        x = self.norm1(x + self._sa_block(x, mask))  # post-norm, PyTorch's default
        return self.norm2(x + self._ff_block(x))


def load_torch_encoder_layer(layer, ref):
    sd = {k: v.detach().numpy() for k, v in ref.state_dict().items()}
    e, h = ref.self_attn.embed_dim, ref.self_attn.num_heads
    for i, proj in enumerate((layer.self_attn.query, layer.self_attn.key, layer.self_attn.value)):
        rows = slice(i * e, (i + 1) * e)
        proj.kernel[...] = sd["self_attn.in_proj_weight"][rows].T.reshape(e, h, e // h)
        proj.bias[...] = sd["self_attn.in_proj_bias"][rows].reshape(h, e // h)
    layer.self_attn.out.kernel[...] = sd["self_attn.out_proj.weight"].T.reshape(h, e // h, e)
    layer.self_attn.out.bias[...] = sd["self_attn.out_proj.bias"]
    for name in ("linear1", "linear2"):
        getattr(layer, name).kernel[...] = sd[name + ".weight"].T
        getattr(layer, name).bias[...] = sd[name + ".bias"]
    for name in ("norm1", "norm2"):
        getattr(layer, name).scale[...] = sd[name + ".weight"]
        getattr(layer, name).bias[...] = sd[name + ".bias"]


torch.manual_seed(0)  # the PyTorch tab's layer, parameters and input
D, HEADS, T, B = 32, 4, 6, 2
ref = nn.TransformerEncoderLayer(D, HEADS)
with torch.no_grad():
    for p in ref.parameters():
        if p.dim() == 1:
            p.add_(0.1 * torch.randn_like(p))
x = torch.randn(T, B, D)  # (sequence, batch, feature)
with torch.no_grad():
    y_ref = ref.eval()(x).numpy().transpose(1, 0, 2)  # compared batch-first
xb = jnp.asarray(x.numpy()).transpose(1, 0, 2)

flax_eps = nnx.LayerNorm(D, rngs=nnx.Rngs(0)).epsilon  # the default, as built
print("nnx.LayerNorm's default epsilon:", flax_eps, "| PyTorch's layer_norm_eps:", ref.norm1.eps)
assert flax_eps == 1e-6 and ref.norm1.eps == 1e-5

# PyTorch's defaults, then one argument at a time set as a port that misses it would set it.
variants = {"as ported": {}, "Flax's epsilon 1e-6": {"layer_norm_eps": flax_eps},
            "norm_first=True": {"norm_first": True}, "activation=gelu": {"activation": nnx.gelu}}
gaps = {}
for name, changes in variants.items():
    layer = TransformerEncoderLayer(D, HEADS, **changes, rngs=nnx.Rngs(0))
    load_torch_encoder_layer(layer, ref)
    if name == "as ported":
        try:  # a new nnx.MultiHeadAttention with dropout has no mode until you choose one
            layer(xb)
        except ValueError as error:
            print("before train() or eval():", type(error).__name__ + ":", " ".join(str(error).split()))
        layer.train()  # dropout on: masks of its own, so no parity
        train_gap = np.abs(np.asarray(layer(xb)) - y_ref).max()
    layer.eval()  # deterministic=True on the attention and on every nnx.Dropout
    gaps[name] = np.abs(np.asarray(layer(xb)) - y_ref).max()
gaps["as ported, train mode"] = train_gap
for name, gap in gaps.items():
    print(f"{name:21s} max |y - y_torch| = {gap:.1e}")
assert gaps["as ported"] < 1e-5
assert min(gaps["norm_first=True"], gaps["activation=gelu"], train_gap) > 1e-2
assert gaps["Flax's epsilon 1e-6"] > 2 * gaps["as ported"]  # small for inputs of this scale, but there
