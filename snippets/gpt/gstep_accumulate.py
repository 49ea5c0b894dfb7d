"""Gradient accumulation with optax.MultiSteps: which step counter counts what."""
import numpy as np
import jax
import jax.numpy as jnp
import optax
from flax import nnx

jax.config.update("jax_default_matmul_precision", "highest")  # float32 products on every backend, for the check

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


schedule = optax.warmup_cosine_decay_schedule(
    init_value=3e-4, peak_value=3e-3, warmup_steps=2, decay_steps=10, end_value=3e-4)
inner = optax.chain(optax.clip_by_global_norm(1.0),  # the shipped chain: clipping, then AdamW
                    optax.inject_hyperparams(optax.adamw)(learning_rate=schedule, weight_decay=0.0))
K = 4  # micro-batches per real update
model = GPT(rngs=nnx.Rngs(0))
model.eval()  # dropout off, so the comparison below is exact
reference = nnx.clone(model)
optimizer = nnx.Optimizer(model, optax.MultiSteps(inner, every_k_schedule=K), wrt=nnx.Param)


@nnx.jit
def micro_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)  # adds to the accumulator; applies every K-th call
    return loss


grad_fn = nnx.jit(nnx.grad(loss_fn))
rng = np.random.default_rng(0)
batches = [batch(rng, 16) for _ in range(2 * K)]  # 8 micro-batches of 16 sequences
start = nnx.clone(nnx.state(model, nnx.Param))
for i, (x, y) in enumerate(batches):
    micro_step(model, optimizer, jnp.asarray(x), jnp.asarray(y))
    if i < K - 1:  # the first K-1 calls leave the weights alone
        assert all(jax.tree.leaves(jax.tree.map(jnp.array_equal, start, nnx.state(model, nnx.Param))))
    if i == K - 2:  # after 3 calls the accumulator holds the MEAN of 3 micro-batch gradients,
        # which is the gradient of the 48 sequences joined (a sum would be 3 times larger)
        acc = jax.tree.leaves(optimizer.opt_state.acc_grads)
        joined = (jnp.asarray(np.concatenate(a)) for a in zip(*batches[:K - 1]))
        full = jax.tree.leaves(grad_fn(model, *joined))
        err = max(float(jnp.abs(a - g).max()) for a, g in zip(acc, full))
        scale = max(float(jnp.abs(g).max()) for g in full)
        print(f"accumulator after 3 calls vs gradient of the joined 48 sequences: largest difference "
              f"{err:.1e}, largest entry {scale:.1e}")
        assert err < 1e-5 * scale  # a sum would be off by 2 x scale

state = optimizer.opt_state
adam = state.inner_opt_state[1]  # MultiSteps -> chain -> the InjectHyperparamsState of AdamW
print("optimizer.step:", int(optimizer.step[...]), " gradient_step:", int(state.gradient_step[...]),
      " inner count:", int(adam.count[...]))
assert int(optimizer.step[...]) == 2 * K  # nnx.Optimizer counts calls: micro-batches
assert int(state.gradient_step[...]) == 2 == int(adam.count[...])  # real updates
# The schedule reads the inner count, so it is at step 2, not 8; the state holds the rate of the last update.
lr = float(adam.hyperparams["learning_rate"][...])
print(f"last learning rate {lr:.2e} = schedule(1); schedule(7) would be {float(schedule(7)):.2e}")
assert np.isclose(lr, schedule(1)) and not np.isclose(lr, schedule(7))

# Two real updates of 4 x 16 sequences equal two plain steps of the same chain on the 64-sequence batches.
plain = nnx.Optimizer(reference, inner, wrt=nnx.Param)
for j in range(2):
    x, y = (np.concatenate(a) for a in zip(*batches[j * K:(j + 1) * K]))
    micro_step(reference, plain, jnp.asarray(x), jnp.asarray(y))
x, y = (jnp.asarray(a) for a in batch(np.random.default_rng(1), 256))
gap = abs(float(loss_fn(model, x, y)) - float(loss_fn(reference, x, y)))
print(f"held-out loss: accumulated {float(loss_fn(model, x, y)):.6f}, big batch "
      f"{float(loss_fn(reference, x, y)):.6f}, gap {gap:.1e}")
# Not bit-identical: the sums run in another order, and Adam divides by sqrt(v), which magnifies
# the rounding of near-zero gradient entries; the losses still agree to float32 noise.
assert gap < 1e-5
