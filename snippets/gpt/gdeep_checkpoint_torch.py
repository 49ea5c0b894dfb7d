"""torch.utils.checkpoint around each GPT block: the same gradients, dropout included."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

VOCAB, SEP, DIGITS, BLOCK = 11, 10, 8, 16
D, HEADS, LAYERS, DROPOUT = 64, 4, 2, 0.1


def batch(rng, size):
    """Sorting task: 8 digits, SEP, the same digits sorted; predict the next token."""
    digits = rng.integers(0, 10, size=(size, DIGITS))
    seq = np.concatenate([digits, np.full((size, 1), SEP), np.sort(digits, axis=1)], axis=1)
    return seq[:, :-1], seq[:, 1:]  # inputs and targets, 16 tokens each


class CausalSelfAttention(nn.Module):
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


class Block(nn.Module):
    def __init__(self, d, heads, dropout):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d)
        self.attn = CausalSelfAttention(d, heads, dropout)
        self.ln_2 = nn.LayerNorm(d)
        self.fc = nn.Linear(d, 4 * d)
        self.proj = nn.Linear(4 * d, d)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.drop(self.proj(F.gelu(self.fc(self.ln_2(x)))))


class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(VOCAB, D)
        self.wpe = nn.Embedding(BLOCK, D)
        self.drop = nn.Dropout(DROPOUT)
        self.h = nn.ModuleList([Block(D, HEADS, DROPOUT) for _ in range(LAYERS)])
        self.ln_f = nn.LayerNorm(D)
        self.lm_head = nn.Linear(D, VOCAB, bias=False)

    def forward(self, idx):
        x = self.drop(self.wte(idx) + self.wpe(torch.arange(idx.shape[1])))
        for block in self.h:
            x = block(x)
        return self.lm_head(self.ln_f(x))


def forward(model, idx, remat):
    """GPT.forward, with each block optionally under torch.utils.checkpoint."""
    x = model.drop(model.wte(idx) + model.wpe(torch.arange(idx.shape[1])))
    for block in model.h:
        x = checkpoint(block, x, use_reentrant=False) if remat else block(x)
    return model.lm_head(model.ln_f(x))


torch.manual_seed(0)
model = GPT()  # train mode: dropout is on
x, y = (torch.as_tensor(a) for a in batch(np.random.default_rng(0), 64))
grads = {}
for remat in (False, True):
    torch.manual_seed(1)  # the same dropout masks in both runs
    model.zero_grad()
    logits = forward(model, x, remat)[:, DIGITS:]
    F.cross_entropy(logits.reshape(-1, VOCAB), y[:, DIGITS:].reshape(-1)).backward()
    grads[remat] = [p.grad.clone() for p in model.parameters()]

diff = max((a - b).abs().max().item() for a, b in zip(grads[False], grads[True]))
print(f"checkpoint on {LAYERS} blocks: max |gradient difference| {diff:.1e} (dropout on in both)")
assert diff < 1e-5  # checkpoint restores the RNG state, so the recomputed blocks draw the same masks
