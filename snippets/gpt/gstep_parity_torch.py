"""The production train step in PyTorch: AdamW parameter groups, warmup + cosine, clipping."""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

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


STEPS, WARMUP, PEAK, END = 15, 5, 3e-3, 3e-4


def warmup_cosine(step):
    """The multiplier of PEAK at `step`: optax.warmup_cosine_decay_schedule written out."""
    if step < WARMUP:
        return step / WARMUP
    t = (step - WARMUP) / (STEPS - WARMUP)
    return (END + (PEAK - END) * 0.5 * (1 + math.cos(math.pi * t))) / PEAK


torch.manual_seed(0)
model = GPT()
model.eval()  # dropout off, for the comparison with JAX
# No weight decay on norms, biases and embeddings: two parameter groups.
decay = [p for n, p in model.named_parameters() if p.dim() >= 2 and not n.startswith(("wte", "wpe"))]
rest = [p for n, p in model.named_parameters() if not (p.dim() >= 2 and not n.startswith(("wte", "wpe")))]
optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1},
                               {"params": rest, "weight_decay": 0.0}], lr=PEAK)
scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, warmup_cosine)

rng = np.random.default_rng(0)
losses = []
for step in range(STEPS):
    x, y = (torch.from_numpy(a) for a in batch(rng, 64))
    loss = F.cross_entropy(model(x)[:, DIGITS:].reshape(-1, VOCAB), y[:, DIGITS:].reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    optimizer.step()
    scheduler.step()
    losses.append(loss.item())
print(len(decay), "tensors with weight decay,", len(rest), "without")
print("losses:", " ".join(f"{v:.4f}" for v in losses))
assert len(decay) == 4 * LAYERS + 1 and losses[-1] < losses[0]
