"""Sharded init: the GPT created inside nnx.jit under a mesh, parameters and AdamW state split over the devices."""
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
jax.config.update("jax_default_device", devices[0])  # the one-device reference is made there

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


# If you write the model, annotate the initializer. Created inside nnx.jit under the mesh, the
# kernel comes out of the compiled program split; created outside, it would be computed whole first.
mesh = jax.make_mesh((len(devices),), ("fsdp",), axis_types=(AxisType.Auto,), devices=devices)
with jax.set_mesh(mesh):
    fc = nnx.jit(lambda: nnx.Linear(
        D, 4 * D, rngs=nnx.Rngs(0),
        kernel_init=nnx.with_partitioning(nnx.initializers.lecun_normal(), P(None, "fsdp"))))()
print("annotated Linear:", fc.kernel.get_metadata("out_sharding"), fc.kernel[...].sharding.spec,
      "on each device", fc.kernel[...].addressable_shards[0].data.shape)
assert fc.kernel[...].sharding.spec == P(None, "fsdp")
assert fc.kernel[...].addressable_shards[0].data.shape == (D, 4 * D // len(devices))


def fsdp_spec(shape):  # split the first axis that the device count divides (every GPT parameter has one)
    i = next(i for i, n in enumerate(shape) if n % len(devices) == 0)
    return P(*[None] * i, "fsdp", *[None] * (len(shape) - i - 1))


@nnx.jit
def create():  # the section's GPT, unchanged: attach the same metadata to each Param, by shape
    model = GPT(rngs=nnx.Rngs(0))
    for _, var in nnx.iter_graph(model):
        if isinstance(var, nnx.Param):
            var.set_metadata(out_sharding=fsdp_spec(var.shape))
            var[...] = jax.lax.with_sharding_constraint(var[...], fsdp_spec(var.shape))
    return model


with jax.set_mesh(mesh):
    model = create()  # compiled: the parameters come out of the program already split
    optimizer = nnx.Optimizer(model, optax.adamw(3e-3, weight_decay=0.01), wrt=nnx.Param)

specs = nnx.get_partition_spec(nnx.state(model, nnx.Param))
shown = {"wte.embedding": model.wte.embedding, "h[0].fc.kernel": model.h[0].fc.kernel,
         "h[0].proj.kernel": model.h[0].proj.kernel, "lm_head.kernel": model.lm_head.kernel}
for name, value in shown.items():
    print(f"{name:17} {str(value.shape):10} {value[...].sharding.spec}")

# Every parameter is split over all the devices, its spec as recorded; AdamW's moments follow the parameters.
params = nnx.state(model, nnx.Param)
adam = optimizer.opt_state[0]
leaves = [jax.tree.leaves(t) for t in (specs, params, adam.mu, adam.nu)]
assert [len(x) for x in leaves] == [29] * 4  # 29 parameters, each with a spec and two moments
for spec, p, mu, nu in zip(*leaves):
    assert p.sharding.is_equivalent_to(NamedSharding(mesh, spec), p.ndim)
    assert len(p.sharding.device_set) == len(devices)
    assert mu.sharding.is_equivalent_to(p.sharding, p.ndim)
    assert nu.sharding.is_equivalent_to(p.sharding, p.ndim)
n = sum(p.size for p in jax.tree.leaves(params))
per_device = sum(p.addressable_shards[0].data.size for p in jax.tree.leaves(params))
print(f"parameters: {n}, on each device: {per_device}")
assert per_device * len(devices) == n

# Same values as the model made on one device.
reference = GPT(rngs=nnx.Rngs(0))
for a, b in zip(jax.tree.leaves(nnx.state(reference, nnx.Param)), jax.tree.leaves(params)):
    assert np.array_equal(np.asarray(a), np.asarray(b))
print("same initial values as on one device")
