"""Three precision policies for the section's GPT: float32, autocast-like (bfloat16 matmuls, float32 stream) and all bfloat16."""
import functools

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


# The classes of gstep_bf16.py: `matmul` is the dtype of the Linear layers, `stream` that of the
# embeddings and the LayerNorms; the parameters stay float32 (`param_dtype`'s default).
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


# 1. What `dtype=jnp.bfloat16` does to one nnx.Linear: the jaxpr of a call on a float32 input.
layer = nnx.Linear(4, 3, dtype=jnp.bfloat16, rngs=nnx.Rngs(0))
eqns = jax.make_jaxpr(lambda x: layer(x))(jnp.ones((2, 4))).eqns
print("nnx.Linear(dtype=bfloat16): parameters", layer.kernel[...].dtype, "| ops:",
      ", ".join(f"{e.primitive.name}->{e.outvars[0].aval.dtype}" for e in eqns))
dot = next(e for e in eqns if e.primitive.name == "dot_general")
assert layer.kernel[...].dtype == jnp.float32 and {v.aval.dtype for v in dot.invars} == {jnp.dtype(jnp.bfloat16)}
assert dot.outvars[0].aval.dtype == eqns[-1].outvars[0].aval.dtype == jnp.bfloat16  # output and bias add too

# The dot's output is bfloat16, but its sum is not: 4096 bfloat16 products summed, then rounded once.
a = jax.random.normal(jax.random.key(0), (64, 4096)).astype(jnp.bfloat16)
b = jax.random.normal(jax.random.key(1), (4096, 64)).astype(jnp.bfloat16)
with jax.default_matmul_precision("highest"):
    exact = a.astype(jnp.float32) @ b.astype(jnp.float32)  # float32 sum of the same products
step = jnp.abs(exact.astype(jnp.bfloat16).astype(jnp.float32)) * 2.0**-7  # one bfloat16 step (8-bit mantissa)
ulps = float(jnp.max(jnp.abs((a @ b).astype(jnp.float32) - exact) / step))
print(f"bfloat16 a @ b with 4096 terms: largest error {ulps:.2f} bfloat16 steps from the float32 sum")
assert ulps < 1  # summed in float32 and rounded once; a bfloat16 running sum would be many steps off


# bfloat16 keeps float32's exponent, so gradients too small for float16 still have a bfloat16 value.
tiny = {t.__name__: float(jnp.finfo(t).tiny) for t in (jnp.float32, jnp.bfloat16, jnp.float16)}
print("smallest normal number: " + ", ".join(f"{k} {v:.1e}" for k, v in tiny.items()))
assert tiny["bfloat16"] == tiny["float32"] < 1e-37 and tiny["float16"] > 6e-5  # loss scaling: float16 only


def loss_fn(model, x, y):
    logits = model(x)[:, DIGITS:].astype(jnp.float32)  # softmax and loss in float32, as autocast does
    return optax.softmax_cross_entropy_with_integer_labels(logits, y[:, DIGITS:]).mean()


# 2. Train the same GPT from the same key on the same batches under each policy.
STEPS, BATCH = 60, 32
rng = np.random.default_rng(0)
xs, ys = (jnp.asarray(np.stack(a)) for a in zip(*(batch(rng, BATCH) for _ in range(STEPS))))
hx, hy = (jnp.asarray(a) for a in batch(np.random.default_rng(1), 256))  # held-out sequences
# (Linear dtype, stream dtype, matmul precision): "highest" keeps the float32 run's products in float32
# on every backend (a TPU's default multiplies float32 in one bfloat16 pass).
policies = {"float32": (jnp.float32, jnp.float32, "highest"),
            "autocast-like": (jnp.bfloat16, jnp.float32, "default"),
            "all bfloat16": (jnp.bfloat16, jnp.bfloat16, "default")}


@functools.partial(jax.jit, static_argnums=0)
def train(graphdef, state, xs, ys):
    """All the steps in one compiled program: the loss of each step's batch, then the held-out loss."""
    def one_step(state, xy):
        model, optimizer = nnx.merge(graphdef, state)
        loss, grads = nnx.value_and_grad(loss_fn)(model, *xy)
        optimizer.update(model, grads)
        return nnx.state((model, optimizer)), loss
    state, losses = jax.lax.scan(one_step, state, (xs, ys))
    return state, losses, loss_fn(nnx.merge(graphdef, state)[0], hx, hy)


weights = nnx.state(nnx.jit(lambda: GPT(rngs=nnx.Rngs(0)))())  # initialised once, in one compiled program


def build(matmul, stream):
    """The GPT of a policy with the same float32 weights (same key), and its optimizer."""
    graphdef = nnx.graphdef(nnx.eval_shape(lambda: GPT(matmul=matmul, stream=stream, rngs=nnx.Rngs(0))))
    model = nnx.merge(graphdef, weights, copy=True)
    model.eval()  # dropout off: the runs differ only in precision
    return model, nnx.Optimizer(model, optax.adamw(1e-3, weight_decay=0.01), wrt=nnx.Param)


def dtypes_inside(model, idx):
    """The dtypes of the residual stream, of a LayerNorm, of a Linear layer and of the logits (shapes only)."""
    x = model.wte(idx) + model.wpe(jnp.arange(idx.shape[1]))
    return x, model.h[0].ln_1(x), model.h[0].attn.c_attn(x), model(idx)


curves, final = {}, {}
for name, (matmul, stream, precision) in policies.items():
    model, optimizer = build(matmul, stream)
    kinds = [a.dtype for a in jax.eval_shape(lambda: dtypes_inside(model, hx[:2]))]
    graphdef, state = nnx.split((model, optimizer))
    with jax.default_matmul_precision(precision):
        state, losses, held_out = train(graphdef, state, xs, ys)
    model, optimizer = nnx.merge(graphdef, state)
    stored = {str(v.dtype) for v in jax.tree.leaves(nnx.state((model, optimizer), nnx.Param))}
    assert stored == {"float32"}  # float32 master weights and AdamW moments under every policy
    curves[name], final[name] = np.asarray(losses), float(held_out)
    print(f"{name}: stream {kinds[0]}, ln_1 {kinds[1]}, c_attn {kinds[2]}, logits {kinds[3]}")
    print("  batch loss at steps 1, 20, 40, 60: " + " ".join(f"{curves[name][i]:.4f}" for i in (0, 19, 39, 59))
          + f"; held-out loss after step 60: {final[name]:.4f}")

f32 = final["float32"]
gaps = {name: (final[name] - f32) / f32 for name in ("autocast-like", "all bfloat16")}
print("final held-out loss relative to float32: "
      + ", ".join(f"{name} {gap:+.2%}" for name, gap in gaps.items()))
TOLERANCE = 0.01  # 1 % of the float32 loss
assert abs(gaps["autocast-like"]) < TOLERANCE  # the autocast-like run trains like the float32 one
