"""Mixed precision like torch.autocast: bfloat16 matmuls, float32 residual stream, norms, softmax and loss."""
import time
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


# Two dtypes: `matmul` for the Linear layers, `stream` for the embeddings and the LayerNorms.
class CausalSelfAttention(nnx.Module):
    def __init__(self, d, heads, dropout, *, matmul, rngs):
        self.heads = heads
        self.c_attn = nnx.Linear(d, 3 * d, dtype=matmul, rngs=rngs)
        self.c_proj = nnx.Linear(d, d, dtype=matmul, rngs=rngs)
        self.drop = nnx.Dropout(dropout, rngs=rngs)

    def __call__(self, x):
        b, t, d = x.shape
        q, k, v = jnp.split(self.c_attn(x), 3, axis=-1)
        q, k, v = (a.reshape(b, t, self.heads, d // self.heads) for a in (q, k, v))
        y = jax.nn.dot_product_attention(q, k, v, is_causal=True)  # its softmax runs in float32
        return self.drop(self.c_proj(y.reshape(b, t, d)))


class Block(nnx.Module):
    def __init__(self, d, heads, dropout, *, matmul, stream, rngs):
        self.ln_1 = nnx.LayerNorm(d, epsilon=1e-5, dtype=stream, rngs=rngs)  # PyTorch's eps
        self.attn = CausalSelfAttention(d, heads, dropout, matmul=matmul, rngs=rngs)
        self.ln_2 = nnx.LayerNorm(d, epsilon=1e-5, dtype=stream, rngs=rngs)
        self.fc = nnx.Linear(d, 4 * d, dtype=matmul, rngs=rngs)
        self.proj = nnx.Linear(4 * d, d, dtype=matmul, rngs=rngs)
        self.drop = nnx.Dropout(dropout, rngs=rngs)

    def __call__(self, x):
        x = x + self.attn(self.ln_1(x))  # float32 + bfloat16 gives float32
        h = nnx.gelu(self.fc(self.ln_2(x)), approximate=False)  # PyTorch's nn.GELU() is exact
        return x + self.drop(self.proj(h))


class GPT(nnx.Module):
    def __init__(self, *, matmul=jnp.float32, stream=jnp.float32, rngs):
        self.wte = nnx.Embed(VOCAB, D, dtype=stream, rngs=rngs)
        self.wpe = nnx.Embed(BLOCK, D, dtype=stream, rngs=rngs)
        self.drop = nnx.Dropout(DROPOUT, rngs=rngs)
        self.h = nnx.List([Block(D, HEADS, DROPOUT, matmul=matmul, stream=stream, rngs=rngs)
                           for _ in range(LAYERS)])
        self.ln_f = nnx.LayerNorm(D, epsilon=1e-5, dtype=stream, rngs=rngs)
        self.lm_head = nnx.Linear(D, VOCAB, use_bias=False, dtype=matmul, rngs=rngs)

    def __call__(self, idx):
        x = self.drop(self.wte(idx) + self.wpe(jnp.arange(idx.shape[1])))
        for block in self.h:
            x = block(x)
        return self.lm_head(self.ln_f(x))


def loss_and_logits(model, x, y):
    logits = model(x)[:, DIGITS:]
    answer = logits.astype(jnp.float32)  # softmax and loss in float32, as autocast does
    return optax.softmax_cross_entropy_with_integer_labels(answer, y[:, DIGITS:]).mean(), logits


@nnx.jit
def train_step(model, optimizer, x, y):
    grads = nnx.grad(lambda m: loss_and_logits(m, x, y)[0])(model)
    optimizer.update(model, grads)
    return grads


evaluate = nnx.jit(loss_and_logits)


STEPS, EVERY = 100, 25
rng = np.random.default_rng(0)
batches = [tuple(jnp.asarray(a) for a in batch(rng, 32)) for _ in range(STEPS)]  # the same for all three
hx, hy = (jnp.asarray(a) for a in batch(np.random.default_rng(1), 256))  # held-out sequences
# (matmul dtype, stream dtype, matmul precision). "highest" keeps the float32 run's products in
# float32 on every backend (a TPU's default is one bfloat16 pass); the bfloat16 runs keep the default.
policies = {"float32": (jnp.float32, jnp.float32, "highest"),
            "autocast-like": (jnp.bfloat16, jnp.float32, "default"),
            "all bfloat16": (jnp.bfloat16, jnp.bfloat16, "default")}
dtypes = lambda tree: {str(a.dtype) for a in jax.tree.leaves(tree)}
held_out = {}
for name, (matmul, stream, precision) in policies.items():
    model = GPT(matmul=matmul, stream=stream, rngs=nnx.Rngs(0))  # same init: params are float32
    model.eval()  # dropout off: the three runs differ only in precision
    optimizer = nnx.Optimizer(model, optax.adamw(1e-3, weight_decay=0.01), wrt=nnx.Param)
    h = model.wte(hx[:4]) + model.wpe(jnp.arange(hx.shape[1]))
    with jax.default_matmul_precision(precision):
        loss, logits = evaluate(model, hx, hy)
        curve = [float(loss)]
        for step, (x, y) in enumerate(batches, 1):
            grads = train_step(model, optimizer, x, y)
            if step % EVERY == 0:
                curve.append(float(evaluate(model, hx, hy)[0]))
    print(f"{name}: residual stream {h.dtype}, ln_1 {model.h[0].ln_1(h).dtype}, "
          f"c_attn {model.h[0].attn.c_attn(h).dtype}, logits {logits.dtype}, loss {loss.dtype}")
    opt_arrays = [a for a in jax.tree.leaves(optimizer.opt_state) if jnp.issubdtype(a.dtype, jnp.floating)]
    assert dtypes(nnx.state(model, nnx.Param)) == dtypes(grads) == dtypes(opt_arrays) == {"float32"}
    held_out[name] = curve
    print(f"  held-out loss at steps 0, 25, 50, 75, 100: {' '.join(f'{v:.4f}' for v in curve)}")

f32 = held_out["float32"]
tol = 0.1 * (f32[-2] - f32[-1])  # a tenth of what float32 still gains over the last 25 steps
gaps = {name: abs(held_out[name][-1] - f32[-1]) for name in ("autocast-like", "all bfloat16")}
for name, gap in gaps.items():
    print(f"{name}: final held-out loss {held_out[name][-1]:.4f}, gap to float32 {gap:.1e} "
          f"({gap / f32[-1]:.2%}); tolerance {tol:.1e}")
assert gaps["autocast-like"] < tol  # the autocast-like run trains like the float32 one
