"""The train step a project ships: schedule, clipping, masked AdamW, metrics, EMA, donation."""
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


def loss_and_logits(model, x, y):
    logits = model(x)[:, DIGITS:]
    return optax.softmax_cross_entropy_with_integer_labels(logits, y[:, DIGITS:]).mean(), logits


STEPS = 400
model = GPT(rngs=nnx.Rngs(0))
decay = nnx.map_state(lambda path, _: path[-1] == "kernel", nnx.state(model, nnx.Param))
schedule = optax.warmup_cosine_decay_schedule(0.0, 3e-3, warmup_steps=20, decay_steps=STEPS,
                                              end_value=3e-4)
tx = optax.chain(
    optax.clip_by_global_norm(1.0),
    optax.inject_hyperparams(optax.adamw)(learning_rate=schedule, weight_decay=0.1, mask=decay))
optimizer = nnx.Optimizer(model, tx, wrt=nnx.Param)
metrics = nnx.MultiMetric(loss=nnx.metrics.Average("loss"), accuracy=nnx.metrics.Accuracy())
ema = nnx.EMA(model, decay=0.99, only=nnx.Param)  # a shadow copy of the weights


# Donation: XLA may write the new weights and moments into the old buffers.
@nnx.jit(donate_argnames=("model", "optimizer"))
def train_step(model, optimizer, metrics, ema, x, y):
    (loss, logits), grads = nnx.value_and_grad(loss_and_logits, has_aux=True)(model, x, y)
    optimizer.update(model, grads)
    ema.update(model)
    metrics.update(loss=loss, logits=logits, labels=y[:, DIGITS:])


@nnx.jit
def token_accuracy(model, x, y):
    return (jnp.argmax(model(x)[:, DIGITS:], -1) == y[:, DIGITS:]).mean()


@nnx.jit
def greedy_sort(model, digits):
    """Greedy generation: each answer token is predicted from the model's own previous ones."""
    n = digits.shape[0]
    seq = jnp.concatenate([digits, jnp.full((n, 1), SEP), jnp.zeros((n, DIGITS), digits.dtype)], axis=1)

    def body(i, seq):  # position DIGITS + i predicts answer token i; the causal mask hides the zeros after it
        token = jnp.argmax(model(seq[:, :BLOCK])[:, DIGITS + i], axis=-1)
        return seq.at[:, DIGITS + 1 + i].set(token.astype(seq.dtype))

    return jax.lax.fori_loop(0, DIGITS, body, seq)[:, DIGITS + 1:]


rng = np.random.default_rng(0)
old_kernel = model.lm_head.kernel[...]  # a handle on one weight buffer before any step
for step in range(STEPS):
    x, y = batch(rng, 64)
    train_step(model, optimizer, metrics, ema, jnp.asarray(x), jnp.asarray(y))
    if step % 100 == 99:
        m = metrics.compute()
        lr = float(optimizer.opt_state[1].hyperparams["learning_rate"][...])
        print(f"step {step + 1}: loss {float(m['loss']):.3f}, train accuracy "
              f"{float(m['accuracy']):.3f}, learning rate {lr:.1e}")
        metrics.reset()

print("old buffer deleted after donation:", old_kernel.is_deleted())
assert old_kernel.is_deleted()  # donated: gone, while model.lm_head.kernel holds the new array
assert np.isclose(lr, schedule(STEPS - 1))  # the rate of the last update, read back
model.eval()
ema_model = ema.apply_to(model)  # the same GPT, with the averaged weights
x, y = (jnp.asarray(a) for a in batch(np.random.default_rng(1), 1000))
acc, ema_acc = float(token_accuracy(model, x, y)), float(token_accuracy(ema_model, x, y))
print(f"held-out token accuracy (teacher-forced): {acc:.3f} (weights), {ema_acc:.3f} (EMA of the weights)")
assert acc >= 0.95 and ema_acc >= 0.95
# Generation: the model reads its own answer tokens, so one wrong token can derail the rest.
digits = x[:, :DIGITS]
sorted_ok = [float((greedy_sort(m, digits) == jnp.sort(digits, axis=1)).all(axis=1).mean())
             for m in (model, ema_model)]
print(f"held-out sequences sorted exactly by greedy generation: {sorted_ok[0]:.3f} (weights), "
      f"{sorted_ok[1]:.3f} (EMA)")
assert min(sorted_ok) >= 0.95
assert not jnp.array_equal(ema_model.lm_head.kernel[...], model.lm_head.kernel[...])
