"""The PyTorch state_dict of the GPT next to nnx.state of the NNX GPT, key by key."""
import collections

import numpy as np
import jax
import jax.numpy as jnp
import torch
import torch.nn as nn
import torch.nn.functional as F
from flax import nnx


VOCAB, SEP, DIGITS, BLOCK = 11, 10, 8, 16
D, HEADS, LAYERS, DROPOUT = 64, 4, 2, 0.1


def batch(rng, size):
    """Sorting task: 8 digits, SEP, the same digits sorted; predict the next token."""
    digits = rng.integers(0, 10, size=(size, DIGITS))
    seq = np.concatenate([digits, np.full((size, 1), SEP), np.sort(digits, axis=1)], axis=1)
    return seq[:, :-1], seq[:, 1:]  # inputs and targets, 16 tokens each


class CausalSelfAttention(nnx.Module):
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


class Block(nnx.Module):
    def __init__(self, d, heads, dropout, *, rngs):
        self.ln_1 = nnx.LayerNorm(d, epsilon=1e-5, rngs=rngs)  # PyTorch's eps; NNX's default is 1e-6
        self.attn = CausalSelfAttention(d, heads, dropout, rngs=rngs)
        self.ln_2 = nnx.LayerNorm(d, epsilon=1e-5, rngs=rngs)
        self.fc = nnx.Linear(d, 4 * d, rngs=rngs)
        self.proj = nnx.Linear(4 * d, d, rngs=rngs)
        self.drop = nnx.Dropout(dropout, rngs=rngs)

    def __call__(self, x):
        x = x + self.attn(self.ln_1(x))
        h = nnx.gelu(self.fc(self.ln_2(x)), approximate=False)  # PyTorch's nn.GELU() is exact
        return x + self.drop(self.proj(h))


class GPT(nnx.Module):
    def __init__(self, *, rngs):
        self.wte = nnx.Embed(VOCAB, D, rngs=rngs)
        self.wpe = nnx.Embed(BLOCK, D, rngs=rngs)
        self.drop = nnx.Dropout(DROPOUT, rngs=rngs)
        self.h = nnx.List([Block(D, HEADS, DROPOUT, rngs=rngs) for _ in range(LAYERS)])
        self.ln_f = nnx.LayerNorm(D, epsilon=1e-5, rngs=rngs)
        self.lm_head = nnx.Linear(D, VOCAB, use_bias=False, rngs=rngs)

    def __call__(self, idx):
        x = self.drop(self.wte(idx) + self.wpe(jnp.arange(idx.shape[1])))
        for block in self.h:
            x = block(x)
        return self.lm_head(self.ln_f(x))


class TorchCausalSelfAttention(nn.Module):
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


class TorchBlock(nn.Module):
    def __init__(self, d, heads, dropout):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d)
        self.attn = TorchCausalSelfAttention(d, heads, dropout)
        self.ln_2 = nn.LayerNorm(d)
        self.fc = nn.Linear(d, 4 * d)
        self.proj = nn.Linear(4 * d, d)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.drop(self.proj(F.gelu(self.fc(self.ln_2(x)))))


class TorchGPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(VOCAB, D)
        self.wpe = nn.Embedding(BLOCK, D)
        self.drop = nn.Dropout(DROPOUT)
        self.h = nn.ModuleList([TorchBlock(D, HEADS, DROPOUT) for _ in range(LAYERS)])
        self.ln_f = nn.LayerNorm(D)
        self.lm_head = nn.Linear(D, VOCAB, bias=False)

    def forward(self, idx):
        x = self.drop(self.wte(idx) + self.wpe(torch.arange(idx.shape[1])))
        for block in self.h:
            x = block(x)
        return self.lm_head(self.ln_f(x))


def load_torch_weights(model, sd):
    """Copy a PyTorch state_dict into the NNX GPT: Linear weights are transposed."""
    t = lambda name: jnp.asarray(sd[name].detach().numpy())
    model.wte.embedding[...] = t("wte.weight")
    model.wpe.embedding[...] = t("wpe.weight")
    for i, block in enumerate(model.h):
        p = f"h.{i}."
        for ln in ("ln_1", "ln_2"):
            getattr(block, ln).scale[...] = t(p + ln + ".weight")
            getattr(block, ln).bias[...] = t(p + ln + ".bias")
        for lin, name in ((block.attn.c_attn, "attn.c_attn"), (block.attn.c_proj, "attn.c_proj"),
                          (block.fc, "fc"), (block.proj, "proj")):
            lin.kernel[...] = t(p + name + ".weight").T
            lin.bias[...] = t(p + name + ".bias")
    model.ln_f.scale[...] = t("ln_f.weight")
    model.ln_f.bias[...] = t("ln_f.bias")
    model.lm_head.kernel[...] = t("lm_head.weight").T


def nnx_path(key):
    """The NNX path of a PyTorch key: h.0.attn.c_attn.weight -> ('h', 0, 'attn', 'c_attn', 'kernel')."""
    *modules, leaf = key.split(".")
    if modules[-1] in ("wte", "wpe"):
        leaf = "embedding"
    elif leaf == "weight":
        leaf = "scale" if modules[-1].startswith("ln") else "kernel"
    return tuple(int(m) if m.isdigit() else m for m in modules) + (leaf,)


torch.manual_seed(0)
sd = TorchGPT().state_dict()
model = GPT(rngs=nnx.Rngs(0))
load_torch_weights(model, sd)
params = dict(nnx.to_flat_state(nnx.state(model, nnx.Param)))

print(f"{'PyTorch key':24s} {'shape':10s} {'NNX path':38s} {'shape':10s} change")
for key, tensor in sd.items():
    path = nnx_path(key)
    torch_value, nnx_value = tensor.numpy(), np.asarray(params[path][...])
    transposed = path[-1] == "kernel"  # every Linear weight, (out, in) -> (in, out)
    assert np.array_equal(nnx_value, torch_value.T if transposed else torch_value)
    if not key.startswith("h.1."):  # the second block repeats the first one's rows
        change = "transpose" if transposed else ("renamed" if key.endswith("weight") else "")
        print(f"{key:24s} {str(tuple(tensor.shape)):10s} {str(path):38s} "
              f"{str(nnx_value.shape):10s} {change}".rstrip())
assert sorted(map(str, map(nnx_path, sd))) == sorted(map(str, params))  # nothing left out
print(len(sd), "tensors in the state_dict,", len(params), "Params in nnx.state")
# nnx.state(model) without a filter also holds each nnx.Dropout's random key and count.
kinds = collections.Counter(type(v).__name__ for _, v in nnx.to_flat_state(nnx.state(model)))
print("nnx.state(model) leaves by type:", dict(sorted(kinds.items())))
assert kinds == {"Param": 29, "RngKey": 5, "RngCount": 5}  # 5 nnx.Dropout layers, one stream each

# A forgotten transpose of the square c_proj weight: same shape, no error, other logits.
x = jnp.asarray(batch(np.random.default_rng(0), 8)[0])
model.eval()
forward = nnx.jit(lambda model, x: model(x))  # one compiled program instead of op by op
right = forward(model, x)
model.h[0].attn.c_proj.kernel[...] = jnp.asarray(sd["h.0.attn.c_proj.weight"].numpy())  # no .T
change = float(jnp.abs(forward(model, x) - right).max())
print(f"c_proj loaded without .T: max |logit change| = {change:.2f}")
assert change > 1e-2
