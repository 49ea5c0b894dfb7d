"""Mixed precision: bfloat16 activations over float32 master weights, grads and Adam moments."""
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
    def __init__(self, d, heads, dropout, *, dtype, rngs):
        self.heads = heads
        self.c_attn = nnx.Linear(d, 3 * d, dtype=dtype, rngs=rngs)
        self.c_proj = nnx.Linear(d, d, dtype=dtype, rngs=rngs)
        self.drop = nnx.Dropout(dropout, rngs=rngs)

    def __call__(self, x):
        b, t, d = x.shape
        q, k, v = jnp.split(self.c_attn(x), 3, axis=-1)
        q, k, v = (a.reshape(b, t, self.heads, d // self.heads) for a in (q, k, v))
        y = jax.nn.dot_product_attention(q, k, v, is_causal=True)  # (batch, time, heads, head_dim)
        return self.drop(self.c_proj(y.reshape(b, t, d)))


class Block(nnx.Module):
    def __init__(self, d, heads, dropout, *, dtype, rngs):
        self.ln_1 = nnx.LayerNorm(d, epsilon=1e-5, dtype=dtype, rngs=rngs)  # PyTorch's eps
        self.attn = CausalSelfAttention(d, heads, dropout, dtype=dtype, rngs=rngs)
        self.ln_2 = nnx.LayerNorm(d, epsilon=1e-5, dtype=dtype, rngs=rngs)
        self.fc = nnx.Linear(d, 4 * d, dtype=dtype, rngs=rngs)
        self.proj = nnx.Linear(4 * d, d, dtype=dtype, rngs=rngs)
        self.drop = nnx.Dropout(dropout, rngs=rngs)

    def __call__(self, x):
        x = x + self.attn(self.ln_1(x))
        h = nnx.gelu(self.fc(self.ln_2(x)), approximate=False)  # PyTorch's nn.GELU() is exact
        return x + self.drop(self.proj(h))


class GPT(nnx.Module):
    def __init__(self, *, dtype=jnp.float32, rngs):
        self.wte = nnx.Embed(VOCAB, D, dtype=dtype, rngs=rngs)
        self.wpe = nnx.Embed(BLOCK, D, dtype=dtype, rngs=rngs)
        self.drop = nnx.Dropout(DROPOUT, rngs=rngs)
        self.h = nnx.List([Block(D, HEADS, DROPOUT, dtype=dtype, rngs=rngs) for _ in range(LAYERS)])
        self.ln_f = nnx.LayerNorm(D, epsilon=1e-5, dtype=dtype, rngs=rngs)
        self.lm_head = nnx.Linear(D, VOCAB, use_bias=False, dtype=dtype, rngs=rngs)

    def __call__(self, idx):
        x = self.drop(self.wte(idx) + self.wpe(jnp.arange(idx.shape[1])))
        for block in self.h:
            x = block(x)
        return self.lm_head(self.ln_f(x))


def loss_fn(model, x, y):
    logits = model(x)[:, DIGITS:].astype(jnp.float32)  # the softmax in float32
    return optax.softmax_cross_entropy_with_integer_labels(logits, y[:, DIGITS:]).mean()


# Compute in bfloat16; nnx layers keep their parameters in param_dtype, float32 by default.
model = GPT(dtype=jnp.bfloat16, rngs=nnx.Rngs(0))
model.eval()
optimizer = nnx.Optimizer(model, optax.adamw(3e-3, weight_decay=0.01), wrt=nnx.Param)
x, y = (jnp.asarray(a) for a in batch(np.random.default_rng(0), 64))


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)
    return loss, grads


dtypes = lambda tree: {str(a.dtype) for a in jax.tree.leaves(tree)}
logits = model(x)
loss, grads = train_step(model, optimizer, x, y)
opt_arrays = [a for a in jax.tree.leaves(optimizer.opt_state) if jnp.issubdtype(a.dtype, jnp.floating)]
print("logits:", logits.dtype, " loss:", loss.dtype)
print("params:", dtypes(nnx.state(model, nnx.Param)), " grads:", dtypes(grads),
      " optimizer state:", dtypes(opt_arrays))
assert logits.dtype == jnp.bfloat16 and loss.dtype == jnp.float32
assert dtypes(nnx.state(model, nnx.Param)) == dtypes(grads) == dtypes(opt_arrays) == {"float32"}

