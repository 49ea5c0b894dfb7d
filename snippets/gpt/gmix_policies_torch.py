"""PyTorch: torch.autocast(device_type="cpu", dtype=torch.bfloat16) on the section's GPT, op by op, and its loss curve."""
import collections

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode


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


def loss_of(logits, y):
    """Cross-entropy over the 8 answer positions."""
    return F.cross_entropy(logits[:, DIGITS:].reshape(-1, VOCAB), y[:, DIGITS:].reshape(-1))


class OutputDtypes(TorchDispatchMode):
    """Records the dtype of each aten operation's output, below autocast (which has already cast)."""
    def __init__(self):
        super().__init__()
        self.seen = collections.defaultdict(set)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        first = out[0] if isinstance(out, (tuple, list)) else out
        if isinstance(first, torch.Tensor) and first.is_floating_point():
            self.seen[str(first.dtype).removeprefix("torch.")].add(func.__name__.split(".")[0])
        return out


torch.manual_seed(0)
model = GPT().eval()  # dropout off: the runs differ only in precision
x, y = (torch.from_numpy(a) for a in batch(np.random.default_rng(0), 4))
with torch.no_grad(), torch.autocast(device_type="cpu", dtype=torch.bfloat16), OutputDtypes() as log:
    stream = model.wte(x) + model.wpe(torch.arange(x.shape[1]))
    logits = model(x)
    loss = loss_of(logits, y)
for dtype, ops in sorted(log.seen.items()):
    print(f"{dtype} outputs: {', '.join(sorted(ops))}")
print(f"residual stream {stream.dtype}, logits {logits.dtype}, loss {loss.dtype}")
assert {"addmm", "mm"} <= log.seen["bfloat16"] and "native_layer_norm" in log.seen["float32"]
assert stream.dtype == loss.dtype == torch.float32 and logits.dtype == torch.bfloat16

# Train from the same weights on the same batches, in float32 and under autocast.
STEPS, BATCH = 60, 32
rng = np.random.default_rng(0)
batches = [tuple(torch.from_numpy(a) for a in batch(rng, BATCH)) for _ in range(STEPS)]
hx, hy = (torch.from_numpy(a) for a in batch(np.random.default_rng(1), 256))  # held-out sequences
start = {k: v.clone() for k, v in model.state_dict().items()}
final = {}
for name, autocast in (("float32", False), ("autocast", True)):
    model.load_state_dict(start)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    curve = []
    for bx, by in batches:
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16, enabled=autocast):
            loss = loss_of(model(bx), by)
        optimizer.zero_grad()
        loss.backward()  # outside the context, as PyTorch's documentation recommends
        optimizer.step()
        curve.append(loss.item())
    assert all(p.dtype == p.grad.dtype == torch.float32 for p in model.parameters())  # float32 master weights
    with torch.no_grad(), torch.autocast(device_type="cpu", dtype=torch.bfloat16, enabled=autocast):
        final[name] = loss_of(model(hx), hy).item()
    print(f"{name}: batch loss at steps 1, 20, 40, 60: " + " ".join(f"{curve[i]:.4f}" for i in (0, 19, 39, 59))
          + f"; held-out loss after step 60: {final[name]:.4f}")
gap = (final["autocast"] - final["float32"]) / final["float32"]
print(f"autocast's final held-out loss relative to float32: {gap:+.2%}")
assert abs(gap) < 0.01  # 1 % of the float32 loss, the tolerance of the JAX tab
