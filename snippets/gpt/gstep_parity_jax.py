"""The same train step in optax, from the same weights and batches: the curves agree."""
import math

import numpy as np
import jax
import jax.numpy as jnp
import optax
import torch
import torch.nn as nn
import torch.nn.functional as F
from flax import nnx

jax.config.update("jax_default_matmul_precision", "highest")  # for the comparison: no TF32 (GPU), no bf16 pass (TPU)

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


STEPS, WARMUP, PEAK, END = 15, 5, 3e-3, 3e-4


def warmup_cosine(step):
    """The multiplier of PEAK at `step`: optax.warmup_cosine_decay_schedule written out."""
    if step < WARMUP:
        return step / WARMUP
    t = (step - WARMUP) / (STEPS - WARMUP)
    return (END + (PEAK - END) * 0.5 * (1 + math.cos(math.pi * t))) / PEAK


def torch_losses(model):
    """The PyTorch tab's loop, for the reference curve."""
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2 and not n.startswith(("wte", "wpe"))]
    rest = [p for n, p in model.named_parameters() if not (p.dim() >= 2 and not n.startswith(("wte", "wpe")))]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1},
                             {"params": rest, "weight_decay": 0.0}], lr=PEAK)
    scheduler = torch.optim.lr_scheduler.LambdaLR(opt, warmup_cosine)
    rng, losses = np.random.default_rng(0), []
    for _ in range(STEPS):
        x, y = (torch.from_numpy(a) for a in batch(rng, 64))
        loss = F.cross_entropy(model(x)[:, DIGITS:].reshape(-1, VOCAB), y[:, DIGITS:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        opt.step()
        scheduler.step()
        losses.append(loss.item())
    return np.array(losses)


torch.manual_seed(0)
torch_model = TorchGPT()
model = GPT(rngs=nnx.Rngs(0))
load_torch_weights(model, torch_model.state_dict())  # the same initial weights
torch_model.eval()
model.eval()  # dropout off in both

decay = nnx.map_state(lambda path, _: path[-1] == "kernel", nnx.state(model, nnx.Param))
schedule = optax.warmup_cosine_decay_schedule(0.0, PEAK, warmup_steps=WARMUP, decay_steps=STEPS,
                                              end_value=END)
tx = optax.chain(optax.clip_by_global_norm(1.0),
                 optax.adamw(schedule, b1=0.9, b2=0.999, eps=1e-8, weight_decay=0.1, mask=decay))
optimizer = nnx.Optimizer(model, tx, wrt=nnx.Param)
# The LambdaLR factors of the PyTorch tab give the optax schedule.
assert np.allclose([PEAK * warmup_cosine(s) for s in range(STEPS)], schedule(np.arange(STEPS)))


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)
    return loss


rng, losses = np.random.default_rng(0), []
for _ in range(STEPS):
    x, y = batch(rng, 64)
    losses.append(float(train_step(model, optimizer, jnp.asarray(x), jnp.asarray(y))))
losses, reference = np.array(losses), torch_losses(torch_model)
print("JAX:    ", " ".join(f"{v:.4f}" for v in losses))
print("PyTorch:", " ".join(f"{v:.4f}" for v in reference))
gap = np.abs(losses - reference).max()
print(f"max |loss difference| over {STEPS} steps: {gap:.1e}")
# float32 in both, summed in different orders: the gap grows slowly through the steps,
# and stays far below the change of the loss from one step to the next.
assert gap < 1e-4 < np.abs(np.diff(reference)).min() / 10
