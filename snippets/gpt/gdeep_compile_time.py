"""Compile time of the GPT gradient step against depth: a Python loop over the blocks vs nnx.scan."""
# The timings this program prints differ from run to run and from machine to machine.
import os
import platform
import time

import numpy as np
import jax
import jax.numpy as jnp
import optax
from flax import nnx
import matplotlib.pyplot as plt

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



class ScanGPT(nnx.Module):
    """The section's GPT with its blocks stacked on a leading layer axis and run by nnx.scan."""

    def __init__(self, *, layers=LAYERS, remat=True, rngs):
        self.wte = nnx.Embed(VOCAB, D, rngs=rngs)
        self.wpe = nnx.Embed(BLOCK, D, rngs=rngs)
        self.drop = nnx.Dropout(DROPOUT, rngs=rngs)

        @nnx.split_rngs(splits=layers)  # one key per layer, for the parameters and for dropout
        @nnx.vmap(in_axes=(0,), out_axes=0)  # one Block whose arrays all gain a leading layer axis
        def make_blocks(rngs):
            return Block(D, HEADS, DROPOUT, rngs=rngs)

        self.h = make_blocks(rngs)
        self.ln_f = nnx.LayerNorm(D, epsilon=1e-5, rngs=rngs)
        self.lm_head = nnx.Linear(D, VOCAB, use_bias=False, rngs=rngs)
        self.remat = remat

    def __call__(self, idx):
        x = self.drop(self.wte(idx) + self.wpe(jnp.arange(idx.shape[1])))

        def body(x, block):  # x is the carry; block is layer i of the stack
            return block(x)

        if self.remat:
            body = nnx.remat(body)  # keep only each layer's input; recompute the rest backward
        x = nnx.scan(body, in_axes=(nnx.Carry, 0), out_axes=nnx.Carry)(x, self.h)
        return self.lm_head(self.ln_f(x))


def loss_fn(model, x, y):
    logits = model(x)[:, DIGITS:]  # only the answer positions count
    return optax.softmax_cross_entropy_with_integer_labels(logits, y[:, DIGITS:]).mean()


def build(kind, depth):
    if kind == "scan":
        return ScanGPT(layers=depth, remat=False, rngs=nnx.Rngs(0))  # no remat: only the loop differs
    model = GPT(rngs=nnx.Rngs(0))
    model.h = nnx.List([Block(D, HEADS, DROPOUT, rngs=nnx.Rngs(i)) for i in range(depth)])
    return model


def compile_seconds(kind, depth):
    graphdef, state = nnx.split(build(kind, depth))
    def grad_step(state, x, y):  # a new function on every call, so that no trace is reused
        return nnx.grad(loss_fn)(nnx.merge(graphdef, state), x, y)
    start = time.perf_counter()
    jax.jit(grad_step).lower(state, x, y).compile()  # trace + lower + XLA compile
    return time.perf_counter() - start


x, y = (jnp.asarray(a) for a in batch(np.random.default_rng(0), 64))
compile_seconds("scan", 1)  # warm-up: one-time start-up costs
depths = [2, 6, 12]
loop = [compile_seconds("loop", n) for n in depths]
scan = [compile_seconds("scan", n) for n in depths]

print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, JAX backend: {jax.default_backend()}")
print(f"{'blocks':>6} {'Python loop (s)':>16} {'nnx.scan (s)':>13} {'ratio':>6}")
for n, a, b in zip(depths, loop, scan):
    print(f"{n:>6} {a:>16.2f} {b:>13.2f} {a / b:>6.1f}")

# Robust relations only: at 12 blocks the loop compiles slower than scan, and from 2 to 12
# blocks the loop's compile time grows more than scan's.
ratio = loop[-1] / scan[-1]
growth = (loop[-1] / loop[0]) / (scan[-1] / scan[0])
print(f"{depths[-1]} blocks: loop / scan = {ratio:.1f} (asserted > 1.5 on the CPU)")
print(f"growth from {depths[0]} to {depths[-1]} blocks, loop / scan = {growth:.1f} (asserted > 1.5 on the CPU)")
if jax.default_backend() == "cpu":  # measured with XLA:CPU; other compilers have other costs per block
    assert ratio > 1.5 and growth > 1.5

plt.figure(figsize=(5, 3.2))
plt.plot(depths, loop, "o-", label="Python loop over nnx.List")
plt.plot(depths, scan, "s-", label="nnx.scan over stacked blocks")
plt.ylim(bottom=0)
plt.xticks(depths, [str(n) for n in depths])
plt.xlabel("number of blocks")
plt.ylabel("lower + compile (s)")
plt.title("compile time of the gradient step")  # the machine is named in the output above
plt.legend()
plt.tight_layout()
plt.show()
