"""GPT-2 generation in one jit (prefill + nnx.fori_loop, bf16, in-place cache) against the HBM and compute bounds."""
# The timings this program prints differ from run to run and from machine to machine.
import os
import time

os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
import jax
import jax.numpy as jnp
import matplotlib.pyplot as plt
import numpy as np
import torch
from flax import nnx
from transformers import GPT2Config, GPT2LMHeadModel
from transformers.utils import logging as hf_logging

hf_logging.disable_progress_bar()

# One chip's HBM bandwidth (bytes/s) and dense bfloat16 peak (flop/s), from Google Cloud's TPU pages
# (cloud.google.com/tpu/docs/v5e, /v5p, /v6e, /v4: "HBM bandwidth" and "Peak compute per chip (bf16)").
CHIPS = {"TPU v5 lite": (819e9, 197e12), "TPU v5": (2765e9, 459e12), "TPU v6 lite": (1640e9, 918e12),
         "TPU v4": (1228e9, 275e12)}


class KVCache(nnx.Variable):
    """Decoding state: keys, values and the next write position."""


class GPT2Attention(nnx.Module):
    def __init__(self, d, heads, *, rngs):
        self.heads = heads
        self.c_attn = nnx.Linear(d, 3 * d, rngs=rngs)
        self.c_proj = nnx.Linear(d, d, rngs=rngs)
        self.k = self.v = nnx.data(None)

    def init_cache(self, batch, max_len, dtype):
        d = self.c_proj.in_features  # heads before positions: each head's keys lie contiguous, as the matmul reads them
        self.k = KVCache(jnp.zeros((batch, self.heads, max_len, d // self.heads), dtype))
        self.v = KVCache(jnp.zeros((batch, self.heads, max_len, d // self.heads), dtype))

    def __call__(self, x, start):
        b, t, d = x.shape
        q, k, v = (a.reshape(b, t, self.heads, d // self.heads).swapaxes(1, 2) for a in jnp.split(self.c_attn(x), 3, -1))
        self.k[...] = jax.lax.dynamic_update_slice(self.k[...], k.astype(self.k.dtype), (0, 0, start, 0))
        self.v[...] = jax.lax.dynamic_update_slice(self.v[...], v.astype(self.v.dtype), (0, 0, start, 0))
        s = jnp.einsum("bhqd,bhkd->bhqk", q, self.k[...], preferred_element_type=jnp.float32) / (d // self.heads) ** 0.5
        mask = jnp.arange(self.k.shape[2])[None, :] <= (start + jnp.arange(t))[:, None]  # key pos <= query pos
        p = jax.nn.softmax(jnp.where(mask, s, -jnp.inf), axis=-1).astype(self.v.dtype)
        y = jnp.einsum("bhqk,bhkd->bhqd", p, self.v[...])
        return self.c_proj(y.swapaxes(1, 2).reshape(b, t, d))


class GPT2MLP(nnx.Module):
    def __init__(self, d, *, rngs):
        self.c_fc = nnx.Linear(d, 4 * d, rngs=rngs)
        self.c_proj = nnx.Linear(4 * d, d, rngs=rngs)

    def __call__(self, x):
        return self.c_proj(nnx.gelu(self.c_fc(x), approximate=True))


class GPT2Block(nnx.Module):
    def __init__(self, d, heads, *, rngs):
        self.ln_1 = nnx.LayerNorm(d, epsilon=1e-5, rngs=rngs)
        self.attn = GPT2Attention(d, heads, rngs=rngs)
        self.ln_2 = nnx.LayerNorm(d, epsilon=1e-5, rngs=rngs)
        self.mlp = GPT2MLP(d, rngs=rngs)

    def __call__(self, x, start):
        x = x + self.attn(self.ln_1(x), start)
        return x + self.mlp(self.ln_2(x))


class GPT2(nnx.Module):
    def __init__(self, cfg, *, rngs):
        self.wte = nnx.Embed(cfg.vocab_size, cfg.n_embd, rngs=rngs)
        self.wpe = nnx.Embed(cfg.n_positions, cfg.n_embd, rngs=rngs)
        self.h = nnx.List([GPT2Block(cfg.n_embd, cfg.n_head, rngs=rngs) for _ in range(cfg.n_layer)])
        self.ln_f = nnx.LayerNorm(cfg.n_embd, epsilon=cfg.layer_norm_epsilon, rngs=rngs)
        self.index = nnx.data(None)

    def init_cache(self, batch, max_len):
        for block in self.h:
            block.attn.init_cache(batch, max_len, self.wte.embedding.dtype)  # the cache in the weights' dtype
        self.index = KVCache(jnp.zeros((), jnp.int32))

    def __call__(self, idx):
        start = self.index[...]
        x = self.wte(idx) + self.wpe(start + jnp.arange(idx.shape[1]))
        for block in self.h:
            x = block(x, start)
        self.index[...] = start + idx.shape[1]
        # tied output layer; logits in float32 so that the argmax does not compare bf16-rounded values
        return jnp.einsum("btd,vd->btv", self.ln_f(x), self.wte.embedding[...], preferred_element_type=jnp.float32)


def load_gpt2(model, tensors):
    """The page's loader for a state_dict: Conv1D kept (in, out), lm_head skipped (tied)."""
    leaf = {"Linear": {"weight": "kernel", "bias": "bias"}, "LayerNorm": {"weight": "scale", "bias": "bias"},
            "Embed": {"weight": "embedding"}}
    for name, array in tensors.items():
        parts = name.removeprefix("transformer.").split(".")
        if parts[0] == "lm_head":
            continue
        module = model
        for p in parts[:-1]:
            module = module[int(p)] if p.isdigit() else getattr(module, p)
        var = getattr(module, leaf[type(module).__name__][parts[-1]])
        assert var.shape == array.shape and var.dtype == array.dtype, name
        var[...] = jnp.asarray(array)


@nnx.jit(static_argnames="new")
def generate(model, prompt, steps, new):
    """Prefill, then `steps` decode steps (traced: one compilation per shape), all in one compiled program."""
    gen = nnx.clone(model)  # a copy inside the trace: its cache is born, updated and dropped on the device
    gen.init_cache(prompt.shape[0], prompt.shape[1] + new)
    out = jnp.zeros((prompt.shape[0], new), jnp.int32).at[:, 0].set(gen(prompt)[:, -1].argmax(-1))

    def body(i, carry):  # one decode step; the loop carries the cache, so XLA updates it in place
        gen, out = carry
        return gen, out.at[:, i].set(gen(out[:, i - 1][:, None])[:, -1].argmax(-1))

    _, out = nnx.fori_loop(1, steps + 1, body, (gen, out))
    return out


@nnx.jit
def prompt_logits(model, prompt):  # the prefill's logits, for the bf16 check
    gen = nnx.clone(model)
    gen.init_cache(*prompt.shape)
    return gen(prompt)


@nnx.jit
def prefill(model, prompt):  # the page's readable version: one call for the prompt ...
    return model(prompt)[:, -1].argmax(-1)


@nnx.jit
def decode(model, token):  # ... and one call from Python per token
    return model(token[:, None])[:, -1].argmax(-1)


def python_loop(model, prompt, new):
    gen = nnx.clone(model)
    gen.init_cache(prompt.shape[0], prompt.shape[1] + new)
    tokens = [prefill(gen, prompt)]
    step = nnx.cached_partial(decode, gen)
    for _ in range(new - 1):
        tokens.append(step(tokens[-1]))
    return jnp.stack(tokens, axis=1)


def best_seconds(fn, repeats=3):
    jax.block_until_ready(fn())  # compile and warm up
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        jax.block_until_ready(fn())
        times.append(time.perf_counter() - t0)
    return min(times)


backend, kind = jax.default_backend(), jax.devices()[0].device_kind
on_cpu = backend == "cpu"
cfg = GPT2Config() if not on_cpu else GPT2Config(n_layer=2, n_embd=64, n_head=4, n_positions=64, vocab_size=1000)
cfg.bos_token_id = cfg.eos_token_id = None  # no end-of-text stop
P, NEW = (8, 56) if on_cpu else (16, 240)  # prompt length, new tokens: a cache of P + NEW positions
BATCHES = (1, 4, 16, 64) if on_cpu else (1, 4, 16, 64, 256)
torch.manual_seed(0)
hf = GPT2LMHeadModel(cfg).eval()
model = GPT2(cfg, rngs=nnx.Rngs(0))
load_gpt2(model, {k: v.numpy() for k, v in hf.state_dict().items()})
print(f"JAX backend {backend}, device {kind}; {cfg.n_layer} layers, width {cfg.n_embd}, vocabulary {cfg.vocab_size}")

# 1. The code path, in float32 at "highest": the one-jit tokens are transformers' greedy tokens.
CHECK = 16
prompt_np = np.random.default_rng(0).integers(0, cfg.vocab_size, size=(2, P))
with jax.default_matmul_precision("highest"):
    ours = generate(model, jnp.asarray(prompt_np), jnp.int32(CHECK - 1), new=CHECK)
with torch.no_grad():
    ref = hf.generate(torch.from_numpy(prompt_np), attention_mask=torch.ones(2, P, dtype=torch.long),
                      max_new_tokens=CHECK, do_sample=False, pad_token_id=0)[:, P:].numpy()
print(f"float32, one jit: {CHECK} greedy tokens per row equal to transformers' generate:", bool((ours == ref).all()))
assert (np.asarray(ours) == ref).all()

# 2. The same model with bfloat16 weights and cache, at the default precision.
with jax.default_matmul_precision("highest"):
    exact = prompt_logits(model, jnp.asarray(prompt_np))
graphdef, params = nnx.split(model)
model = nnx.merge(graphdef, jax.tree.map(lambda a: a.astype(jnp.bfloat16), params))
rough = prompt_logits(model, jnp.asarray(prompt_np))
err = float(jnp.abs(rough - exact).max())
print(f"bf16 prompt logits: dtype {rough.dtype}, finite {bool(jnp.isfinite(rough).all())}, "
      f"max |bf16 - float32| {err:.1e} (largest logit {float(jnp.abs(exact).max()):.2f})")
assert bool(jnp.isfinite(rough).all()) and err < 0.05 * float(jnp.abs(exact).max())
n_params = sum(a.size for a in jax.tree.leaves(params))
weight_bytes = 2 * n_params  # every parameter once per step, in bf16 (wpe is read one row at a time: <1 % over)
bandwidth, peak = CHIPS.get(kind, (None, None)) if not on_cpu else (None, None)
print(f"{n_params:,} parameters, {weight_bytes / 1e6:.1f} MB in bf16; cache of {P + NEW} positions, "
      f"prompt {P}, {NEW} new tokens")
if bandwidth:
    print(f"{kind}: HBM {bandwidth / 1e9:.0f} GB/s, bf16 peak {peak / 1e12:.0f} TFLOP/s, "
          f"ridge point {peak / bandwidth:.0f} flops per byte")
else:
    print(f"{kind} ({backend}): no bandwidth or peak in the table: times only" + (", CPU, not a roofline claim" if on_cpu else ""))

print(f"{'batch':>5} {'ms/step':>8} {'tokens/s':>9}" + (f" {'HBM ms':>7} {'flop ms':>7} {'bound':>7} {'of HBM':>6}" if bandwidth else ""))
measured = {}
for B in BATCHES:
    prompt = jax.random.randint(jax.random.key(B), (B, P), 0, cfg.vocab_size)
    out = generate(model, prompt, jnp.int32(NEW - 1), new=NEW)
    assert out.shape == (B, NEW) and bool(((out >= 0) & (out < cfg.vocab_size)).all())
    # Each timing is one call: the whole generation, hundreds of steps in flight, so the host's
    # per-call latency is paid once. A call that stops after the first token removes the prefill.
    full = best_seconds(lambda: generate(model, prompt, jnp.int32(NEW - 1), new=NEW))
    short = best_seconds(lambda: generate(model, prompt, jnp.int32(0), new=NEW))
    step = (full - short) / (NEW - 1)
    measured[B] = B / step
    line = f"{B:>5} {step * 1e3:8.3f} {B / step:9,.0f}"
    if bandwidth:
        kv_bytes = 2 * cfg.n_layer * B * (P + NEW) * cfg.n_embd * 2  # keys and values, the whole buffer, bf16
        flops = 2 * n_params * B + 4 * cfg.n_layer * B * (P + NEW) * cfg.n_embd  # weights, then attention
        t_hbm, t_flop = (weight_bytes + kv_bytes) / bandwidth, flops / peak
        line += f" {t_hbm * 1e3:7.3f} {t_flop * 1e3:7.3f} {'HBM' if t_hbm > t_flop else 'compute':>7} {t_hbm / step:6.0%}"
    print(line)
    if B == 4 and bandwidth:
        print(f"batch 4: {t_hbm / step:.0%} of the HBM bound")

if on_cpu:  # the Python loop of one jitted call per token, same bf16 model: the same tokens
    B = 4
    prompt = jax.random.randint(jax.random.key(B), (B, P), 0, cfg.vocab_size)
    one_jit = generate(model, prompt, jnp.int32(NEW - 1), new=NEW)
    loop = python_loop(model, prompt, NEW)
    loop_s = best_seconds(lambda: python_loop(model, prompt, NEW))
    print(f"batch 4, bf16: Python loop {loop_s / NEW * 1e3:.3f} ms per token step; "
          "same tokens as one jit:", bool((loop == one_jit).all()), "(CPU, not a roofline claim)")
    assert (np.asarray(loop) == np.asarray(one_jit)).all()

# Tokens/s against batch; where the chip is in the table, both bounds as lines.
plt.figure(figsize=(5.5, 3.6))
plt.loglog(list(measured), list(measured.values()), "o-", label="measured, one jit, bf16")
if bandwidth:
    b = np.geomspace(1, 1024, 100)
    kv = 2 * cfg.n_layer * b * (P + NEW) * cfg.n_embd * 2
    plt.loglog(b, b * bandwidth / (weight_bytes + kv), "k--", linewidth=1, label="HBM bound: weights + cache")
    plt.loglog(b, b * peak / (2 * n_params * b + 4 * cfg.n_layer * b * (P + NEW) * cfg.n_embd), "k:",
               linewidth=1, label="compute bound: bf16 peak")
    plt.loglog(b, b * bandwidth / weight_bytes, color="gray", linewidth=0.8, label="HBM bound: weights alone")
plt.xlabel("batch (sequences decoded together)")
plt.ylabel("tokens per second")
plt.title("GPT-2 decoding against batch")  # the machine is named in the output above
plt.legend(fontsize=7, loc="lower right")
plt.tight_layout()
plt.show()
