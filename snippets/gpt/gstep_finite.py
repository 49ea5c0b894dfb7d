"""Reading the learning rate back, and skipping a NaN update with optax.apply_if_finite."""
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


schedule = optax.warmup_cosine_decay_schedule(0.0, 3e-3, warmup_steps=4, decay_steps=20, end_value=3e-4)
tx = optax.apply_if_finite(
    optax.chain(optax.clip_by_global_norm(1.0),
                optax.inject_hyperparams(optax.adamw)(learning_rate=schedule)),
    max_consecutive_errors=5)  # skips up to 5 bad steps in a row; the 6th is applied, NaN and all
model = GPT(rngs=nnx.Rngs(0))
optimizer = nnx.Optimizer(model, tx, wrt=nnx.Param)
adam = optimizer.opt_state.inner_state[1]  # apply_if_finite -> chain -> inject_hyperparams
x, y = (jnp.asarray(a) for a in batch(np.random.default_rng(0), 64))
grad_fn = nnx.jit(nnx.grad(loss_fn))
apply = nnx.jit(lambda model, optimizer, grads: optimizer.update(model, grads))

rates = []
for step in range(3):
    grads = grad_fn(model, x, y)
    apply(model, optimizer, grads)
    rates.append(float(adam.hyperparams["learning_rate"][...]))  # the rate this update used
print("learning rates used:", [f"{r:.2e}" for r in rates])
assert np.allclose(rates, [schedule(i) for i in range(3)])

# A NaN gradient: the update is skipped, the weights and the schedule stay where they were.
before = nnx.clone(nnx.state(model, nnx.Param))
bad = jax.tree.map(lambda g: jnp.full_like(g, jnp.nan), grads)
apply(model, optimizer, bad)
s = optimizer.opt_state
print("notfinite_count:", int(s.notfinite_count[...]), " total_notfinite:", int(s.total_notfinite[...]),
      " adam count:", int(adam.count[...]), " optimizer.step:", int(optimizer.step[...]))
assert all(jax.tree.leaves(jax.tree.map(jnp.array_equal, before, nnx.state(model, nnx.Param))))
assert int(s.notfinite_count[...]) == 1 and not bool(s.last_finite[...])
assert int(adam.count[...]) == 3 and int(optimizer.step[...]) == 4  # nnx counts the skipped call

apply(model, optimizer, grads)  # a finite step resets the consecutive count
assert int(s.notfinite_count[...]) == 0 and int(s.total_notfinite[...]) == 1
assert float(adam.hyperparams["learning_rate"][...]) == float(schedule(3))

# Six bad steps in a row: apply_if_finite gives up and applies the sixth, which writes NaN into the weights.
for i in range(6):
    apply(model, optimizer, bad)
    finite = all(bool(jnp.isfinite(p).all()) for p in jax.tree.leaves(nnx.state(model, nnx.Param)))
    print(f"bad step {i + 1} in a row: notfinite_count {int(s.notfinite_count[...])}, weights finite: {finite}")
    assert finite == (i < 5)
