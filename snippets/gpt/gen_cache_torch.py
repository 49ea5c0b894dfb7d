"""PyTorch: greedy generation with the whole prefix re-run, and with past keys and values kept."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


VOCAB, SEP, DIGITS, BLOCK = 11, 10, 8, 16
D, HEADS, LAYERS, DROPOUT = 64, 4, 2, 0.1


class CausalSelfAttention(nn.Module):
    def __init__(self, d, heads, dropout):
        super().__init__()
        self.heads, self.dropout = heads, dropout
        self.c_attn = nn.Linear(d, 3 * d)
        self.c_proj = nn.Linear(d, d)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, past=None):
        b, t, d = x.shape
        q, k, v = self.c_attn(x).split(d, dim=-1)
        q, k, v = (a.view(b, t, self.heads, d // self.heads).transpose(1, 2) for a in (q, k, v))
        if past is not None:  # keys and values of the earlier positions
            k, v = torch.cat([past[0], k], dim=2), torch.cat([past[1], v], dim=2)
        # One new query sees every cached key: is_causal would keep key 0 only (tril of a 1 x S mask).
        y = F.scaled_dot_product_attention(q, k, v, is_causal=past is None,
                                           dropout_p=self.dropout if self.training else 0.0)
        return self.drop(self.c_proj(y.transpose(1, 2).reshape(b, t, d))), (k, v)


class Block(nn.Module):
    def __init__(self, d, heads, dropout):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d)
        self.attn = CausalSelfAttention(d, heads, dropout)
        self.ln_2 = nn.LayerNorm(d)
        self.fc = nn.Linear(d, 4 * d)
        self.proj = nn.Linear(4 * d, d)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, past=None):
        a, kv = self.attn(self.ln_1(x), past)
        x = x + a
        return x + self.drop(self.proj(F.gelu(self.fc(self.ln_2(x))))), kv


class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(VOCAB, D)
        self.wpe = nn.Embedding(BLOCK, D)
        self.drop = nn.Dropout(DROPOUT)
        self.h = nn.ModuleList([Block(D, HEADS, DROPOUT) for _ in range(LAYERS)])
        self.ln_f = nn.LayerNorm(D)
        self.lm_head = nn.Linear(D, VOCAB, bias=False)

    def forward(self, idx, past=None):
        start = 0 if past is None else past[0][0].shape[2]  # positions continue after the cache
        x = self.drop(self.wte(idx) + self.wpe(torch.arange(start, start + idx.shape[1])))
        cache = []
        for i, block in enumerate(self.h):
            x, kv = block(x, None if past is None else past[i])
            cache.append(kv)
        return self.lm_head(self.ln_f(x)), cache


torch.manual_seed(0)  # the weights that the JAX tab loads
model = GPT().eval()
digits = np.random.default_rng(1).integers(0, 10, size=(4, DIGITS))
prompt = torch.from_numpy(np.concatenate([digits, np.full((4, 1), SEP)], axis=1))  # (4, 9)

with torch.no_grad():
    idx = prompt  # without a cache: the whole prefix again at every step
    for _ in range(DIGITS):
        logits, _ = model(idx)
        idx = torch.cat([idx, logits[:, -1].argmax(-1, keepdim=True)], dim=1)
    plain = idx[:, prompt.shape[1]:]

    logits, past = model(prompt)  # prefill: the prompt once, keeping each layer's keys and values
    out = [logits[:, -1].argmax(-1, keepdim=True)]
    for _ in range(DIGITS - 1):
        logits, past = model(out[-1], past)  # one new token; the cache grows by one position
        out.append(logits[:, -1].argmax(-1, keepdim=True))
    cached = torch.cat(out, dim=1)

print("prompt[0]:   ", prompt[0].tolist())
print("generated:   ", cached.tolist())
print("cache of layer 0, keys:", tuple(past[0][0].shape), "(batch, heads, positions, head_dim)")
assert torch.equal(plain, cached)  # the cache changes the work, not the tokens
