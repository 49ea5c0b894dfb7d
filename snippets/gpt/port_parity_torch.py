"""PyTorch: the GPT's logits and loss in eval mode, in train mode, and in train mode without dropout."""
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


def loss_of(logits, y):
    """Cross-entropy over the 8 answer positions, like the NNX loss_fn."""
    return F.cross_entropy(logits[:, DIGITS:].reshape(-1, VOCAB), y[:, DIGITS:].reshape(-1))


torch.manual_seed(0)  # the weights that the JAX tab loads
model = GPT()
x, y = (torch.from_numpy(a) for a in batch(np.random.default_rng(0), 8))

with torch.no_grad():
    logits = model.eval()(x)
    eval_loss = loss_of(logits, y).item()
    train_loss = loss_of(model.train()(x), y).item()  # dropout 0.1 is active
    for m in model.modules():  # dropout off, still in train mode
        if isinstance(m, nn.Dropout):
            m.p = 0.0
        if isinstance(m, CausalSelfAttention):
            m.dropout = 0.0  # the attention-weight dropout of scaled_dot_product_attention
    off_loss = loss_of(model(x), y).item()

print("logits[0, 8, :4]:", np.round(logits[0, DIGITS, :4].numpy(), 5))
print(f"loss: eval {eval_loss:.6f}, train {train_loss:.6f}, train without dropout {off_loss:.6f}")
assert abs(off_loss - eval_loss) < 1e-6  # with p = 0, train mode computes what eval mode does
assert abs(train_loss - eval_loss) > 1e-3  # with p = 0.1 it does not
