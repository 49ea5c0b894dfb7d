"""Restore the GPT into an abstract state from nnx.eval_shape, sharded over a mesh of devices."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import shutil
import tempfile

import absl.logging
import numpy as np
import jax
import jax.numpy as jnp
import optax
import orbax.checkpoint as ocp
from flax import nnx
from jax.sharding import NamedSharding, PartitionSpec as P

absl.logging.set_verbosity(absl.logging.ERROR)  # keep Orbax's log lines off stderr
jax.config.update("jax_default_matmul_precision", "highest")  # compare sharded and unsharded logits

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
backend, count = jax.default_backend(), jax.device_count()
if devices[0].platform != "cpu":
    print(f"using {len(devices)} of the {count} {devices[0].platform} devices")
else:  # say why, so that a reader with one GPU or TPU chip is not surprised
    why = "no accelerator" if backend == "cpu" else f"only one {backend} device"
    print(f"{why}: using {len(devices)} emulated CPU devices")
jax.config.update("jax_default_device", devices[0])  # the saved run lives on the mesh's kind of device
mesh_shape = (2, len(devices) // 2) if len(devices) > 2 else (1, 2)  # on 2 devices, both go to "model"
mesh = jax.make_mesh(mesh_shape, ("data", "model"), devices=devices)
model_size = mesh.shape["model"]
print("mesh:", dict(mesh.shape))

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



def build():
    model = GPT(rngs=nnx.Rngs(0))
    return model, nnx.Optimizer(model, optax.adamw(3e-3, weight_decay=0.01), wrt=nnx.Param)


model, optimizer = build()  # stands in for the run that wrote the checkpoint
ckpt_dir = tempfile.mkdtemp()
with ocp.CheckpointManager(ckpt_dir) as manager:
    manager.save(0, args=ocp.args.StandardSave(nnx.state((model, optimizer))))
    manager.wait_until_finished()

abstract_model, abstract_optimizer = nnx.eval_shape(build)  # shapes and dtypes, no arrays
graphdef, abstract = nnx.split((abstract_model, abstract_optimizer))


def place(leaf):
    """Split matrices' columns over "model" where they divide evenly; replicate the rest."""
    spec = P(None, "model") if leaf.ndim == 2 and leaf.shape[1] % model_size == 0 else P()
    return jax.ShapeDtypeStruct(leaf.shape, leaf.dtype, sharding=NamedSharding(mesh, spec))


target = jax.tree.map(place, abstract)
with ocp.CheckpointManager(ckpt_dir) as manager:
    restored = manager.restore(manager.latest_step(), args=ocp.args.StandardRestore(target))
new_model, new_optimizer = nnx.merge(graphdef, restored)
shutil.rmtree(ckpt_dir)

kernel = new_model.h[0].fc.kernel[...]
shard = kernel.addressable_shards[0].data
print("fc kernel:", kernel.shape, kernel.sharding.spec, "| one shard:", shard.shape)
assert shard.shape == (D, 4 * D // model_size)  # 256 columns over the devices of "model"
for got, want in zip(jax.tree.leaves(restored), jax.tree.leaves(target)):
    assert got.sharding == want.sharding  # every array lands where the target says


def raw(a):
    """Key arrays compare through their key data."""
    return jax.random.key_data(a) if jax.dtypes.issubdtype(a.dtype, jax.dtypes.prng_key) else a


same = jax.tree.map(lambda a, b: np.array_equal(raw(a), raw(b)),
                    nnx.state((model, optimizer)), nnx.state((new_model, new_optimizer)))
assert all(jax.tree.leaves(same))  # the same values as saved, bit for bit
x, _ = batch(np.random.default_rng(1), 8)
model.eval()  # no dropout: compare the two models' logits
new_model.eval()
logits = nnx.jit(lambda m, x: m(x))(new_model, jnp.asarray(x))
expected = model(jnp.asarray(x))
print("max |logit difference|, sharded vs. saved:", float(jnp.abs(logits - expected).max()))
assert jnp.allclose(logits, expected, atol=1e-5)
