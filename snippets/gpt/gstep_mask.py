"""A weight-decay mask that holds in both tx.init and tx.update of nnx.Optimizer."""
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


def loss_fn(model, x, y):
    logits = model(x)[:, DIGITS:]  # only the answer positions count
    return optax.softmax_cross_entropy_with_integer_labels(logits, y[:, DIGITS:]).mean()


model = GPT(rngs=nnx.Rngs(0))
zeros = jax.tree.map(jnp.zeros_like, nnx.state(model, nnx.Param))

# The trap: optax calls a callable mask in tx.init with Variables and in tx.update with arrays.
seen = []
def spy(tree):
    seen.append(jax.tree_util.keystr(jax.tree_util.tree_leaves_with_path(tree)[1][0]))
    return jax.tree.map(lambda _: True, tree)
nnx.Optimizer(model, optax.adamw(1e-3, mask=spy), wrt=nnx.Param).update(model, zeros)
print("a path at init:  ", seen[0])
print("a path at update:", seen[1])
assert seen[0] == seen[1] + ".value"  # a test on path[-1] cannot hold for both

# The fix: build the mask once from the model's own state paths; it is a tree of plain bools
# that lines up with both forms (a bool is a prefix of a Variable).
decay = nnx.map_state(lambda path, _: path[-1] == "kernel", nnx.state(model, nnx.Param))
print([".".join(map(str, p)) for p, d in nnx.to_flat_state(decay) if d][:3], "...")

lr, wd = 0.1, 0.5
optimizer = nnx.Optimizer(model, optax.adamw(lr, weight_decay=wd, mask=decay), wrt=nnx.Param)
before = nnx.clone(nnx.state(model, nnx.Param))
optimizer.update(model, zeros)  # zero gradients: only weight decay moves a parameter
after = nnx.state(model, nnx.Param)

decayed = 0
for (path, d), (_, old), (_, new) in zip(nnx.to_flat_state(decay), nnx.to_flat_state(before),
                                         nnx.to_flat_state(after)):
    expected = old[...] * (1 - lr * wd) if d else old[...]
    assert jnp.allclose(new[...], expected, rtol=1e-6), path
    decayed += int(d)
n_params = len(nnx.to_flat_state(decay))
print(f"{decayed} of {n_params} parameters decayed: the Linear kernels only")
assert decayed == 4 * LAYERS + 1  # c_attn, c_proj, fc, proj per block, and lm_head

# nanoGPT's rule is another convention: decay every parameter of two or more dimensions, the
# matmul kernels and the embeddings, and nothing of one dimension (biases, LayerNorm scales).
nanogpt = nnx.map_state(lambda path, v: jnp.ndim(v[...]) >= 2, nnx.state(model, nnx.Param))
extra = [".".join(map(str, p)) for (p, a), (_, b) in zip(nnx.to_flat_state(nanogpt), nnx.to_flat_state(decay))
         if a and not b]
print("nanoGPT's rule (ndim >= 2) also decays:", extra)
assert extra == ["wpe.embedding", "wte.embedding"]
# With GPT-2's tied head (logits = wte.attend(x)), the embedding is the output layer too: a mask
# of kernels alone leaves GPT-2 small's 50257 x 768 matrix, its largest, without weight decay.
print(f"tied wte in GPT-2 small: {50257 * 768 / 1e6:.1f} M parameters outside a kernel-only mask")

# nanoGPT's initialisation, as NNX initializers: N(0, 0.02) for kernels and embeddings, zero biases,
# and the residual projections scaled by 1/sqrt(2 * layers), one for each residual addition.
normal = nnx.initializers.normal(0.02)
proj = nnx.Linear(4 * D, D, kernel_init=nnx.initializers.normal(0.02 / (2 * LAYERS) ** 0.5),
                  rngs=nnx.Rngs(1))
wte = nnx.Embed(VOCAB, D, embedding_init=normal, rngs=nnx.Rngs(2))
stds = {name: float(jnp.std(w[...])) for name, w in (("proj kernel", proj.kernel), ("wte", wte.embedding))}
print("initial std:", {k: round(v, 4) for k, v in stds.items()}, "bias all zero:", bool((proj.bias[...] == 0).all()))
assert abs(stds["proj kernel"] - 0.02 / (2 * LAYERS) ** 0.5) < 0.002 and abs(stds["wte"] - 0.02) < 0.004
