"""Flax NNX: a fixed-size KV cache in nnx.Cache variables, one compiled decode step, PyTorch's tokens."""
import numpy as np
import jax
import jax.numpy as jnp
import torch
import torch.nn as nn
import torch.nn.functional as F
from flax import nnx

jax.config.update("jax_default_matmul_precision", "highest")  # float32 products: no TF32 (GPU), no bf16 pass (TPU)


VOCAB, SEP, DIGITS, BLOCK = 11, 10, 8, 16
D, HEADS, LAYERS, DROPOUT = 64, 4, 2, 0.1


class CausalSelfAttention(nnx.Module):
    def __init__(self, d, heads, dropout, *, rngs):
        self.heads = heads
        self.c_attn = nnx.Linear(d, 3 * d, rngs=rngs)
        self.c_proj = nnx.Linear(d, d, rngs=rngs)
        self.drop = nnx.Dropout(dropout, rngs=rngs)
        self.k_cache = self.v_cache = nnx.data(None)  # no cache until init_cache

    def init_cache(self, batch, max_len):
        shape = (batch, max_len, self.heads, self.c_proj.in_features // self.heads)
        self.k_cache, self.v_cache = nnx.Cache(jnp.zeros(shape)), nnx.Cache(jnp.zeros(shape))

    def __call__(self, x, start=None):
        b, t, d = x.shape
        q, k, v = jnp.split(self.c_attn(x), 3, axis=-1)
        q, k, v = (a.reshape(b, t, self.heads, d // self.heads) for a in (q, k, v))
        if start is None:  # no cache: the whole sequence, as in the port
            y = jax.nn.dot_product_attention(q, k, v, is_causal=True)
        else:  # write the t new keys and values at positions start .. start + t - 1
            self.k_cache[...] = jax.lax.dynamic_update_slice(self.k_cache[...], k, (0, start, 0, 0))
            self.v_cache[...] = jax.lax.dynamic_update_slice(self.v_cache[...], v, (0, start, 0, 0))
            q_pos = start + jnp.arange(t)
            k_pos = jnp.arange(self.k_cache.shape[1])
            mask = k_pos[None, :] <= q_pos[:, None]  # (t, max_len): also hides the slots not yet written
            y = jax.nn.dot_product_attention(q, self.k_cache[...], self.v_cache[...], mask=mask)
        return self.drop(self.c_proj(y.reshape(b, t, d)))


class Block(nnx.Module):
    def __init__(self, d, heads, dropout, *, rngs):
        self.ln_1 = nnx.LayerNorm(d, epsilon=1e-5, rngs=rngs)
        self.attn = CausalSelfAttention(d, heads, dropout, rngs=rngs)
        self.ln_2 = nnx.LayerNorm(d, epsilon=1e-5, rngs=rngs)
        self.fc = nnx.Linear(d, 4 * d, rngs=rngs)
        self.proj = nnx.Linear(4 * d, d, rngs=rngs)
        self.drop = nnx.Dropout(dropout, rngs=rngs)

    def __call__(self, x, start=None):
        x = x + self.attn(self.ln_1(x), start)
        return x + self.drop(self.proj(nnx.gelu(self.fc(self.ln_2(x)), approximate=False)))


class GPT(nnx.Module):
    def __init__(self, *, rngs):
        self.wte = nnx.Embed(VOCAB, D, rngs=rngs)
        self.wpe = nnx.Embed(BLOCK, D, rngs=rngs)
        self.drop = nnx.Dropout(DROPOUT, rngs=rngs)
        self.h = nnx.List([Block(D, HEADS, DROPOUT, rngs=rngs) for _ in range(LAYERS)])
        self.ln_f = nnx.LayerNorm(D, epsilon=1e-5, rngs=rngs)
        self.lm_head = nnx.Linear(D, VOCAB, use_bias=False, rngs=rngs)

    def __call__(self, idx, start=None):
        pos = jnp.arange(idx.shape[1]) + (0 if start is None else start)
        x = self.drop(self.wte(idx) + self.wpe(pos))
        for block in self.h:
            x = block(x, start)
        return self.lm_head(self.ln_f(x))


class TorchGPT(nn.Module):
    """The section's PyTorch GPT, written compactly: only its weights and tokens are used here."""
    def __init__(self):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(VOCAB, D), nn.Embedding(BLOCK, D)
        self.h = nn.ModuleList(nn.ModuleDict(dict(
            ln_1=nn.LayerNorm(D), c_attn=nn.Linear(D, 3 * D), c_proj=nn.Linear(D, D),
            ln_2=nn.LayerNorm(D), fc=nn.Linear(D, 4 * D), proj=nn.Linear(4 * D, D)))
            for _ in range(LAYERS))
        self.ln_f = nn.LayerNorm(D)
        self.lm_head = nn.Linear(D, VOCAB, bias=False)

    def forward(self, idx):
        b, t = idx.shape
        x = self.wte(idx) + self.wpe(torch.arange(t))
        for blk in self.h:
            q, k, v = blk.c_attn(blk.ln_1(x)).split(D, dim=-1)
            q, k, v = (a.view(b, t, HEADS, D // HEADS).transpose(1, 2) for a in (q, k, v))
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + blk.c_proj(y.transpose(1, 2).reshape(b, t, D))
            x = x + blk.proj(F.gelu(blk.fc(blk.ln_2(x))))
        return self.lm_head(self.ln_f(x))


def load_torch_weights(model, sd):
    """Copy the PyTorch state_dict into the NNX GPT: Linear weights are transposed."""
    t = lambda name: jnp.asarray(sd[name].numpy())
    model.wte.embedding[...], model.wpe.embedding[...] = t("wte.weight"), t("wpe.weight")
    for i, block in enumerate(model.h):
        p = f"h.{i}."
        block.ln_1.scale[...], block.ln_1.bias[...] = t(p + "ln_1.weight"), t(p + "ln_1.bias")
        block.ln_2.scale[...], block.ln_2.bias[...] = t(p + "ln_2.weight"), t(p + "ln_2.bias")
        for lin, name in ((block.attn.c_attn, "c_attn"), (block.attn.c_proj, "c_proj"),
                          (block.fc, "fc"), (block.proj, "proj")):
            lin.kernel[...], lin.bias[...] = t(p + name + ".weight").T, t(p + name + ".bias")
    model.ln_f.scale[...], model.ln_f.bias[...] = t("ln_f.weight"), t("ln_f.bias")
    model.lm_head.kernel[...] = t("lm_head.weight").T


torch.manual_seed(0)  # the same weights as in the PyTorch tab
ref = TorchGPT().eval()
model = GPT(rngs=nnx.Rngs(0))
load_torch_weights(model, ref.state_dict())
model.eval()  # no dropout while generating
digits = np.random.default_rng(1).integers(0, 10, size=(4, DIGITS))
prompt_np = np.concatenate([digits, np.full((4, 1), SEP)], axis=1)  # (4, 9), as in the PyTorch tab
prompt = jnp.asarray(prompt_np)
traces = {"full": 0, "prefill": 0, "decode": 0}


@nnx.jit
def full(model, idx):  # no cache: the whole prefix, a new shape at every step
    traces["full"] += 1  # Python runs this line only while tracing, once per compilation
    return model(idx)[:, -1]


@nnx.jit
def prefill(model, prompt):
    traces["prefill"] += 1
    return model(prompt, start=0)[:, -1]


@nnx.jit
def decode(model, token, pos):  # one token at position pos, a traced int32: the same shapes every step
    traces["decode"] += 1
    return model(token[:, None], start=pos)[:, -1]


idx, plain_logits = prompt, []
for _ in range(DIGITS):
    plain_logits.append(full(model, idx))
    idx = jnp.concatenate([idx, plain_logits[-1].argmax(-1)[:, None]], axis=1)
plain = idx[:, prompt.shape[1]:]

for block in model.h:
    block.attn.init_cache(batch=4, max_len=BLOCK)  # zeros, fixed size: the shapes never change
cached_logits = [prefill(model, prompt)]
tokens = [cached_logits[-1].argmax(-1)]
for i in range(DIGITS - 1):
    pos = jnp.asarray(prompt.shape[1] + i, dtype=jnp.int32)
    cached_logits.append(decode(model, tokens[-1], pos))
    tokens.append(cached_logits[-1].argmax(-1))
cached = jnp.stack(tokens, axis=1)

with torch.no_grad():  # PyTorch's greedy tokens from the same weights
    t_idx = torch.from_numpy(prompt_np)
    for _ in range(DIGITS):
        t_idx = torch.cat([t_idx, ref(t_idx)[:, -1].argmax(-1, keepdim=True)], dim=1)

gap = max(float(jnp.abs(a - b).max()) for a, b in zip(plain_logits, cached_logits))
top2 = jnp.sort(jnp.stack(cached_logits), axis=-1)[..., -2:]
margin = float((top2[..., 1] - top2[..., 0]).min())
print("generated:   ", cached.tolist())
print("compilations:", traces)
print("cache of layer 0, keys:", model.h[0].attn.k_cache.shape, "(batch, positions, heads, head_dim)")
print(f"max |cached - uncached logits| = {gap:.1e}; smallest top-2 margin = {margin:.1e}")
assert (cached == plain).all()  # token for token
assert (np.asarray(cached) == t_idx[:, prompt.shape[1]:].numpy()).all()  # PyTorch's tokens
assert traces == {"full": DIGITS, "prefill": 1, "decode": 1}  # one compile for 7 decode steps
assert gap < 1e-5 < margin
