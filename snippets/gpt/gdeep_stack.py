"""A GPT whose blocks are created with nnx.vmap and run with nnx.scan, dropout and remat inside."""
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


model = ScanGPT(layers=4, rngs=nnx.Rngs(0))
print("stacked parameters of the 4 blocks:")
for path, p in nnx.to_flat_state(nnx.state(model.h, nnx.Param)):
    print(f"  h.{'.'.join(map(str, path)):<18} {p.shape}")
    assert p.shape[0] == 4  # the leading axis is the layer

x, y = (jnp.asarray(a) for a in batch(np.random.default_rng(0), 64))
logits = nnx.jit(lambda model, x: model(x))(model, x)  # train mode: dropout is on
print(f"logits {logits.shape}")
assert logits.shape == (64, BLOCK, VOCAB)

# Dropout inside the scan: each layer holds its own key, so each layer draws its own mask.
keys, counts = model.h.drop.rngs.key[...], model.h.drop.rngs.count[...]
print(f"dropout RNG state of the stack: keys {keys.shape}, counts {counts.shape}")
assert keys.shape == counts.shape == (4,)  # one key and one counter per layer
assert len({tuple(np.asarray(k)) for k in jax.random.key_data(keys)}) == 4  # four different keys
draw_masks = nnx.scan(lambda x, block: (x, block.drop(x) != 0), in_axes=(nnx.Carry, 0),
                      out_axes=(nnx.Carry, 0))  # only the blocks' last dropout, on ones
before = counts
masks = draw_masks(jnp.ones((64, BLOCK, D)), model.h)[1]
share = jnp.mean(masks[:, None] == masks[None, :], axis=(2, 3, 4))
print("share of equal mask entries, layer by layer:\n", np.round(np.asarray(share), 2))
assert masks.shape == (4, 64, BLOCK, D)
assert jnp.all(share[~jnp.eye(4, dtype=bool)] < 0.9)  # independent masks at rate 0.1 agree ~82 %
kept = float(masks.mean())
print(f"kept share {kept:.3f} (rate {DROPOUT})")
assert abs(kept - (1 - DROPOUT)) < 0.01

# The scan wrote the advanced counters back into the stack: the next call draws new masks.
print("counters before and after:", np.asarray(before), np.asarray(model.h.drop.rngs.count[...]))
assert jnp.all(model.h.drop.rngs.count[...] == before + 1)
again = draw_masks(jnp.ones((64, BLOCK, D)), model.h)[1]
assert float(jnp.mean(again == masks)) < 0.9
