"""Resume a GPT run exactly: model, optimizer, Grain iterator and dropout RNG in one Orbax checkpoint."""
import shutil
import tempfile

import absl.logging
import grain
import numpy as np
import jax
import jax.numpy as jnp
import optax
import orbax.checkpoint as ocp
from flax import nnx

absl.logging.set_verbosity(absl.logging.ERROR)  # keep Orbax's log lines off stderr

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


traces = []  # one entry each time nnx.jit traces train_step


@nnx.jit
def train_step(model, optimizer, x, y):
    traces.append(x.shape)
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)
    return loss


TX = optax.adamw(3e-3, weight_decay=0.01)  # one object: train_step then compiles only once


def build():
    """Everything a fresh process creates: model, optimizer, data iterator."""
    model = GPT(rngs=nnx.Rngs(0))  # dropout is on: the model starts in training mode
    optimizer = nnx.Optimizer(model, TX, wrt=nnx.Param)
    x, y = batch(np.random.default_rng(0), 1024)  # a fixed data set of 1024 sequences
    data = (grain.MapDataset.source(list(zip(x, y)))
            .shuffle(seed=0).batch(64, drop_remainder=True).repeat())  # reshuffled each epoch
    return model, optimizer, iter(data)


def train(model, optimizer, it, steps):
    return np.array([train_step(model, optimizer, *next(it)) for _ in range(steps)])


N, M = 10, 5  # save after N steps; the run goes on for M more
ckpt_dir = tempfile.mkdtemp()
model, optimizer, it = build()
train(model, optimizer, it, N)
print("iterator state:", it.get_state(), "| dropout key count:", model.drop.rngs.count[...])
assert it.get_state() == {"next_index": N} and model.drop.rngs.count[...] == N  # one key per call
with ocp.CheckpointManager(ckpt_dir) as manager:
    manager.save(N, args=ocp.args.Composite(
        state=ocp.args.StandardSave({"model": nnx.state(model), "optimizer": nnx.state(optimizer)}),
        data=grain.checkpoint.CheckpointSave(it),  # the iterator's position, as JSON
    ))
    manager.wait_until_finished()
    print("saved items:", sorted(manager.item_metadata(N).keys()))
reference = train(model, optimizer, it, M)  # the uninterrupted run goes on
del model, optimizer, it  # from here on, everything is rebuilt


def resume(restore_data=True, restore_rng=True):
    """A new process: build everything from scratch, then restore the checkpoint into it."""
    model, optimizer, it = build()
    fresh_rng = jax.tree.map(jnp.copy, nnx.state(model, nnx.RngState))  # a copy: key, count 0
    target = {"model": nnx.state(model), "optimizer": nnx.state(optimizer)}
    with ocp.CheckpointManager(ckpt_dir) as manager:
        step = manager.latest_step()
        items = {"state": ocp.args.StandardRestore(target)}
        if restore_data:
            items["data"] = grain.checkpoint.CheckpointRestore(it)  # sets the position in place
        restored = manager.restore(step, args=ocp.args.Composite(**items))
    nnx.update(model, restored["state"]["model"])
    nnx.update(optimizer, restored["state"]["optimizer"])
    if not restore_rng:
        nnx.update(model, fresh_rng)  # undo the RNG part of the restore
    return step, train(model, optimizer, it, M)


step, resumed = resume()
print("resumed at step", step, "for", len(resumed), "steps | losses equal to the uninterrupted run:",
      np.array_equal(resumed, reference))
print("uninterrupted:", reference[:3], "\nresumed:      ", resumed[:3])
assert step == N
if jax.default_backend() == "cpu":
    assert np.array_equal(resumed, reference)  # bit for bit
else:  # GPU scatter-adds (the embeddings' gradients) may add in another order on each run
    assert np.allclose(resumed, reference, rtol=1e-4)

_, no_data = resume(restore_data=False)  # the iterator starts over at batch 0
_, no_rng = resume(restore_rng=False)  # dropout draws the masks of step 0 again
print("without the data position:", no_data[:3], "\nwithout the RNG state:    ", no_rng[:3])
assert not np.allclose(no_data, reference, rtol=1e-3)  # far more than rounding
assert not np.allclose(no_rng, reference, rtol=1e-3)
print("train_step traced", len(traces), "time(s) for", N + 4 * M, "steps")
assert len(traces) == 1  # one TX for every build: the rebuilt optimizers reuse the compiled step
shutil.rmtree(ckpt_dir)
