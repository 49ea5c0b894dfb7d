"""Data parallel, FSDP and tensor parallel GPT training on several devices give the one-device losses."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import numpy as np
import jax
import jax.numpy as jnp
import optax
from flax import nnx
from jax import P
from jax.sharding import AxisType, NamedSharding

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
backend, count = jax.default_backend(), jax.device_count()
if devices[0].platform != "cpu":
    print(f"using {len(devices)} of the {count} {devices[0].platform} devices")
else:  # say why, so that a reader with one GPU or TPU chip is not surprised
    why = "no accelerator" if backend == "cpu" else f"only one {backend} device"
    print(f"{why}: using {len(devices)} emulated CPU devices")
jax.config.update("jax_default_device", devices[0])  # the one-device reference runs there
jax.config.update("jax_default_matmul_precision", "highest")  # no TF32 or bfloat16 passes in the comparison

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


STEPS = 5


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)
    return loss


def train(model, optimizer, x_sharding=None):
    rng, losses = np.random.default_rng(0), []
    for _ in range(STEPS):
        x, y = (jax.device_put(a, x_sharding) for a in batch(rng, 64))
        losses.append(train_step(model, optimizer, x, y))
    return np.array(losses)


def sharded(mesh, spec_of):
    @nnx.jit
    def create():  # the GPT born sharded: spec_of(path, shape) says how to split each Param
        model = GPT(rngs=nnx.Rngs(0))
        for path, var in nnx.iter_graph(model):
            if isinstance(var, nnx.Param):
                spec = spec_of(path, var.shape)
                var.set_metadata(out_sharding=spec)
                var[...] = jax.lax.with_sharding_constraint(var[...], spec)
        return model

    with jax.set_mesh(mesh):
        model = create()
        optimizer = nnx.Optimizer(model, optax.adamw(3e-3, weight_decay=0.01), wrt=nnx.Param)
    params = jax.tree.leaves(nnx.state(model, nnx.Param))
    moments = jax.tree.leaves(optimizer.opt_state[0].mu)
    assert len(moments) == len(params) == 29
    for p, mu in zip(params, moments):
        assert mu.sharding.is_equivalent_to(p.sharding, p.ndim)  # AdamW state follows the parameters
    return model, optimizer


def fsdp(path, shape):  # split the first axis that the device count divides (every GPT parameter has one)
    i = next(i for i, n in enumerate(shape) if n % len(devices) == 0)
    return P(*[None] * i, "data", *[None] * (len(shape) - i - 1))


def tensor(path, shape):  # Megatron MLP: fc split by columns, proj by rows; the rest replicated
    if "fc" in path:
        return P(None, "model") if path[-1] == "kernel" else P("model")
    if "proj" in path and path[-1] == "kernel":
        return P("model", None)
    return P()


model = GPT(rngs=nnx.Rngs(0))
reference = train(model, nnx.Optimizer(model, optax.adamw(3e-3, weight_decay=0.01), wrt=nnx.Param))
print("one device:     ", np.round(reference, 6))

flat = jax.make_mesh((len(devices),), ("data",), axis_types=(AxisType.Auto,), devices=devices)
grid_shape = (2, len(devices) // 2) if len(devices) > 2 else (1, 2)  # on 2 devices, both go to "model"
grid = jax.make_mesh(grid_shape, ("data", "model"), axis_types=(AxisType.Auto,) * 2, devices=devices)
runs = {"data parallel": (flat, lambda path, shape: P()),  # every device holds every parameter
        "FSDP": (flat, fsdp),
        "tensor parallel": (grid, tensor)}
for name, (mesh, spec_of) in runs.items():
    model, optimizer = sharded(mesh, spec_of)
    losses = train(model, optimizer, NamedSharding(mesh, P("data")))  # batch split over "data"
    kernel = model.h[0].fc.kernel[...]
    print(f"{name + ':':16}", np.round(losses, 6), "fc.kernel", kernel.sharding.spec,
          "on each device", kernel.addressable_shards[0].data.shape)
    print(f"{'':16} largest relative difference {np.max(np.abs(losses / reference - 1)):.1e}")
    assert np.allclose(losses, reference, rtol=1e-5)  # same training, up to summation order
