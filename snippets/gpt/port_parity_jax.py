"""Flax NNX: the ported GPT gives PyTorch's logits and loss from PyTorch's weights."""
import numpy as np
import jax
import jax.numpy as jnp
import optax
import torch
import torch.nn as nn
import torch.nn.functional as F
from flax import nnx

jax.config.update("jax_default_matmul_precision", "highest")  # float32 products: no TF32 (GPU), no bf16 pass (TPU)


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


def loss_fn(model, x, y):
    logits = model(x)[:, DIGITS:]  # only the answer positions count
    return optax.softmax_cross_entropy_with_integer_labels(logits, y[:, DIGITS:]).mean()


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


torch.manual_seed(0)  # the same weights as in the PyTorch tab
ref = TorchGPT()
model = GPT(rngs=nnx.Rngs(0))  # a new NNX module starts in train mode, like an nn.Module
load_torch_weights(model, ref.state_dict())
x, y = batch(np.random.default_rng(0), 8)

with torch.no_grad():
    ref_logits = ref.eval()(torch.from_numpy(x)).numpy()
ref_loss = F.cross_entropy(torch.from_numpy(ref_logits[:, DIGITS:]).reshape(-1, VOCAB),
                           torch.from_numpy(y[:, DIGITS:]).reshape(-1)).item()

eval_model = nnx.view(model, deterministic=True)  # model.eval() as a view; model stays in train mode
logits = np.asarray(eval_model(jnp.asarray(x)))
eval_loss = float(loss_fn(eval_model, jnp.asarray(x), jnp.asarray(y)))
train_loss = float(loss_fn(model, jnp.asarray(x), jnp.asarray(y)))  # dropout 0.1 is active
for _, m in nnx.iter_modules(model):  # dropout off, still in train mode
    if isinstance(m, nnx.Dropout):
        m.rate = 0.0
off_loss = float(loss_fn(model, jnp.asarray(x), jnp.asarray(y)))

print("logits[0, 8, :4]:", np.round(logits[0, DIGITS, :4], 5))
print(f"loss: eval {eval_loss:.6f}, train {train_loss:.6f}, train without dropout {off_loss:.6f}")
gap = np.abs(logits - ref_logits).max()
print(f"max |logits - PyTorch logits| = {gap:.1e}; PyTorch eval loss {ref_loss:.6f}")
assert gap < 1e-5
# The loss goes through exp and log, which a TPU computes with its own approximations: 5e-6 apart on a v5e.
loss_tol = 1e-5 if jax.default_backend() == "cpu" else 1e-4
assert abs(eval_loss - ref_loss) < loss_tol and abs(off_loss - ref_loss) < loss_tol
assert abs(train_loss - ref_loss) > 1e-3  # dropout draws its own masks: no parity there
assert not model.drop.deterministic and eval_model.drop.deterministic  # the view did not switch model
