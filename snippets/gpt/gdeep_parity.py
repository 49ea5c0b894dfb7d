"""nnx.scan over stacked blocks computes the logits and gradients of the Python-loop GPT."""
import numpy as np
import jax
import jax.numpy as jnp
import optax
from flax import nnx

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


jax.config.update("jax_default_matmul_precision", "highest")  # for the comparison: no TF32 (GPU), no bf16 pass (TPU)
loop = GPT(rngs=nnx.Rngs(0))
stack = ScanGPT(rngs=nnx.Rngs(1))  # remat=True: the transformer-stack case

# Copy the loop's weights: block i of loop.h becomes index i of the stacked layer axis.
per_block = [nnx.state(block, nnx.Param) for block in loop.h]
nnx.update(stack.h, jax.tree.map(lambda *a: jnp.stack(a), *per_block))
for name in ("wte", "wpe", "ln_f", "lm_head"):
    nnx.update(getattr(stack, name), nnx.state(getattr(loop, name), nnx.Param))

loop.eval(), stack.eval()  # dropout off in both, so that they can agree
x, y = (jnp.asarray(a) for a in batch(np.random.default_rng(0), 64))
# One compiled step per model returns the loss, the logits (aux) and the gradients.
step = nnx.jit(nnx.value_and_grad(lambda m, x, y: (loss_fn(m, x, y), m(x)), has_aux=True))
((_, logits_loop), g_loop), ((_, logits_stack), g_stack) = step(loop, x, y), step(stack, x, y)
diff = jnp.max(jnp.abs(logits_loop - logits_stack))
print(f"max |logit difference|, loop vs scan: {diff:.2e}")
assert diff < 1e-5

g_loop_h = jax.tree.map(lambda *a: jnp.stack(a), *[g_loop["h"][i] for i in range(LAYERS)])
pairs = [(g_loop_h, g_stack["h"])] + [(g_loop[n], g_stack[n]) for n in ("wte", "wpe", "ln_f", "lm_head")]
gdiff = max(float(jnp.max(jnp.abs(a - b))) for p, q in pairs
            for a, b in zip(jax.tree.leaves(p), jax.tree.leaves(q)))
print(f"max |gradient difference|: {gdiff:.2e}, gradient of h.fc.kernel {g_stack['h']['fc']['kernel'].shape}")
assert jax.tree.structure(g_loop_h) == jax.tree.structure(g_stack["h"])
assert gdiff < 1e-5
