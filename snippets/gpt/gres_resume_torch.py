"""PyTorch: resume a GPT run exactly from one torch.save dict of model, optimizer, RNG and data state."""
import os
import shutil
import tempfile

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

def build():
    torch.manual_seed(0)
    model = GPT()  # training mode: dropout is on
    return model, torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)


def train(model, opt, data, steps):
    losses = []
    for _ in range(steps):
        x, y = (torch.as_tensor(a) for a in batch(data, 64))
        logits = model(x)[:, DIGITS:]
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), y[:, DIGITS:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return np.array(losses)


N, M = 4, 3
model, opt = build()
data = np.random.default_rng(0)  # the data position is this generator's state
train(model, opt, data, N)
path = os.path.join(tempfile.mkdtemp(), "ckpt.pt")
ckpt = {"model": model.state_dict(), "optimizer": opt.state_dict(),
        "rng": torch.get_rng_state(), "data": data.bit_generator.state, "step": N}
if torch.cuda.is_available():  # on a GPU, dropout draws from each device's own CUDA generator
    ckpt["cuda_rng"] = torch.cuda.get_rng_state_all()
torch.save(ckpt, path)
print("generators saved: CPU" + (f" and {torch.cuda.device_count()} CUDA" if "cuda_rng" in ckpt else ""))
reference = train(model, opt, data, M)  # the uninterrupted run goes on


def resume(restore_rng=True):
    model, opt = build()  # a new process: fresh model, optimizer and RNG
    ckpt = torch.load(path, weights_only=False)  # the numpy state is a plain dict, not tensors
    model.load_state_dict(ckpt["model"])
    opt.load_state_dict(ckpt["optimizer"])
    if restore_rng:
        torch.set_rng_state(ckpt["rng"])
        if "cuda_rng" in ckpt:
            torch.cuda.set_rng_state_all(ckpt["cuda_rng"])
    data = np.random.default_rng()
    data.bit_generator.state = ckpt["data"]
    return train(model, opt, data, M)


resumed, no_rng = resume(), resume(restore_rng=False)
print("saved at step", N, "| then", M, "more steps")
print("uninterrupted:", reference, "\nresumed:      ", resumed, "\nwithout rng:  ", no_rng)
assert np.array_equal(resumed, reference) and not np.array_equal(no_rng, reference)
shutil.rmtree(os.path.dirname(path))
