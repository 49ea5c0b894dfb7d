"""GPT-2 greedy generation with a fixed-size KV cache in NNX state: one compilation, transformers' tokens."""
import os
import time

os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
import numpy as np
import jax
import jax.numpy as jnp
import torch
from flax import nnx
from transformers import GPT2Config, GPT2LMHeadModel
from transformers.utils import logging as hf_logging

hf_logging.disable_progress_bar()  # no progress bar on stderr, whatever the version reads from the environment

# The timings this program prints differ from run to run and from machine to machine.
jax.config.update("jax_default_matmul_precision", "highest")  # a comparison: float32 products, no bf16 pass (TPU)


class KVCache(nnx.Variable):
    """Decoding state: keys, values and the next write position. Not a Param, so no optimizer sees it."""


class GPT2Attention(nnx.Module):
    def __init__(self, d, heads, *, rngs):
        self.heads = heads
        self.c_attn = nnx.Linear(d, 3 * d, rngs=rngs)
        self.c_proj = nnx.Linear(d, d, rngs=rngs)
        self.k = self.v = nnx.data(None)  # no cache until init_cache

    def init_cache(self, batch, max_len):
        d = self.c_proj.in_features
        self.k = KVCache(jnp.zeros((batch, max_len, self.heads, d // self.heads)))
        self.v = KVCache(jnp.zeros((batch, max_len, self.heads, d // self.heads)))

    def __call__(self, x, start):
        b, t, d = x.shape
        q, k, v = (a.reshape(b, t, self.heads, d // self.heads) for a in jnp.split(self.c_attn(x), 3, axis=-1))
        if self.k is None:  # no cache: the whole sequence
            y = jax.nn.dot_product_attention(q, k, v, is_causal=True)
        else:  # write the t new keys and values at start .. start + t - 1, a traced position
            self.k[...] = jax.lax.dynamic_update_slice(self.k[...], k, (0, start, 0, 0))
            self.v[...] = jax.lax.dynamic_update_slice(self.v[...], v, (0, start, 0, 0))
            mask = jnp.arange(self.k.shape[1])[None, :] <= (start + jnp.arange(t))[:, None]  # key pos <= query pos
            y = jax.nn.dot_product_attention(q, self.k[...], self.v[...], mask=mask)
        return self.c_proj(y.reshape(b, t, d))


class GPT2MLP(nnx.Module):
    def __init__(self, d, *, rngs):
        self.c_fc = nnx.Linear(d, 4 * d, rngs=rngs)
        self.c_proj = nnx.Linear(4 * d, d, rngs=rngs)

    def __call__(self, x):
        return self.c_proj(nnx.gelu(self.c_fc(x), approximate=True))  # HF's "gelu_new"


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
            block.attn.init_cache(batch, max_len)
        self.index = KVCache(jnp.zeros((), jnp.int32))  # the cache's fill level, also state

    def __call__(self, idx):
        start = 0 if self.index is None else self.index[...]
        x = self.wte(idx) + self.wpe(start + jnp.arange(idx.shape[1]))
        for block in self.h:
            x = block(x, start)
        if self.index is not None:
            self.index[...] = start + idx.shape[1]
        return self.wte.attend(self.ln_f(x))  # tied output layer


def load_gpt2(model, tensors):
    """A shorter loader than the page's first program's, for a state_dict, into a model built with random weights: Conv1D kept (in, out), lm_head skipped (tied)."""
    leaf = {"Linear": {"weight": "kernel", "bias": "bias"}, "LayerNorm": {"weight": "scale", "bias": "bias"},
            "Embed": {"weight": "embedding"}}
    for name, array in tensors.items():
        parts = name.removeprefix("transformer.").split(".")
        if parts[-2:] in (["attn", "bias"], ["attn", "masked_bias"]) or parts[0] == "lm_head":
            continue
        module = model
        for p in parts[:-1]:
            module = module[int(p)] if p.isdigit() else getattr(module, p)
        var = getattr(module, leaf[type(module).__name__][parts[-1]])
        assert var.shape == array.shape and var.dtype == array.dtype, name
        var[...] = jnp.asarray(array)


on_cpu = jax.default_backend() == "cpu"
cfg = GPT2Config() if not on_cpu else GPT2Config(n_layer=2, n_embd=128, n_head=4, n_positions=64, vocab_size=1000)
cfg.bos_token_id = cfg.eos_token_id = None  # no end-of-text stop: every row generates all its tokens
B, P, MAX = (8, 8, 40) if on_cpu else (4, 16, 256)  # batch, prompt length, cache size
NEW = MAX - P
CHECK = NEW if on_cpu else 32  # tokens per row compared with transformers' generate, which runs on the CPU
torch.manual_seed(0)
hf = GPT2LMHeadModel(cfg).eval()
assert hf.lm_head.weight is hf.transformer.wte.weight  # tied: state_dict() lists one tensor under two names
model = GPT2(cfg, rngs=nnx.Rngs(0))
load_gpt2(model, {k: v.numpy() for k, v in hf.state_dict().items()})
prompt_np = np.random.default_rng(0).integers(0, cfg.vocab_size, size=(B, P))
prompt = jnp.asarray(prompt_np)
traces = {"prefill": 0, "decode": 0, "recompute": 0}


@nnx.jit
def prefill(model, prompt):  # the whole prompt in one call: fills slots 0 .. P-1
    traces["prefill"] += 1  # Python runs this line only while tracing, once per compilation
    return model(prompt)[:, -1].argmax(-1)


@nnx.jit
def decode(model, token):  # one token at the cache's index: the same shapes at every step
    traces["decode"] += 1
    return model(token[:, None])[:, -1].argmax(-1)


@nnx.jit
def recompute(model, buf, pos):  # no cache: the whole fixed-size buffer again, read the logits at pos - 1
    traces["recompute"] += 1
    token = jnp.take(model(buf), pos - 1, axis=1).argmax(-1)
    return buf.at[:, pos].set(token)


def generate_cached():
    cached = nnx.clone(model)
    cached.init_cache(B, MAX)  # zeros of the final size: the shapes never change
    tokens = [prefill(cached, prompt)]
    step = nnx.cached_partial(decode, cached)  # walk the model's graph once, not at every step
    for _ in range(NEW - 1):
        tokens.append(step(tokens[-1]))
    return jnp.stack(tokens, axis=1), cached


def generate_recompute():
    buf = jnp.zeros((B, MAX), jnp.int32).at[:, :P].set(prompt)
    step = nnx.cached_partial(recompute, model)
    for pos in range(P, MAX):
        buf = step(buf, jnp.int32(pos))
    return buf[:, P:]


def timed(fn):
    fn()  # compile and warm up
    t0 = time.perf_counter()
    out = jax.block_until_ready(fn())
    return out, B * NEW / (time.perf_counter() - t0)


(ours, cached), cached_tps = timed(generate_cached)
plain, plain_tps = timed(generate_recompute)
with torch.no_grad():
    ref = hf.generate(torch.from_numpy(prompt_np), attention_mask=torch.ones(B, P, dtype=torch.long),
                      max_new_tokens=CHECK, do_sample=False, pad_token_id=0)[:, P:].numpy()
print(f"JAX backend {jax.default_backend()}, device {jax.devices()[0].device_kind}, {os.cpu_count()} CPU cores")
print(f"batch {B}, prompt {P}, {NEW} new tokens, cache of {MAX} positions")
print("first row, first 12 tokens:", np.asarray(ours)[0, :12].tolist())
print("cache of layer 0, keys:", cached.h[0].attn.k.shape, "(batch, positions, heads, head_dim); index", int(cached.index[...]))
print(f"equal to transformers' generate: the first {CHECK} new tokens of each row")
print("compilations after two generations:", traces)
print(f"tokens/s: KV cache {cached_tps:,.0f}, recompute the {MAX}-position buffer {plain_tps:,.0f} "
      f"(x{cached_tps / plain_tps:.1f})")
assert (np.asarray(ours)[:, :CHECK] == ref).all()  # transformers' tokens
assert (np.asarray(plain) == np.asarray(ours)).all()  # with and without the cache: all NEW tokens
assert traces == {"prefill": 1, "decode": 1, "recompute": 1}  # not one per step, not one per generation
assert int(cached.index[...]) == MAX - 1  # the last generated token is never fed back
assert cached_tps > 1.5 * plain_tps

# The mask trap, on layer 0's real cache after a prefill: P slots written, one query at the last of them.
trap = nnx.clone(model)
trap.init_cache(B, MAX)
prefill(trap, prompt)
k, v, index = trap.h[0].attn.k[...], trap.h[0].attn.v[...], int(trap.index[...])
q = jax.random.normal(jax.random.key(0), (B, 1, cfg.n_head, cfg.n_embd // cfg.n_head))
reference = jax.nn.dot_product_attention(q, k[:, :index], v[:, :index])  # the written keys only, no mask
masks = {"tril(ones((1, MAX)))": jnp.tril(jnp.ones((1, MAX), bool)),  # what is_causal=True builds for one query
         "k_pos < cache index": jnp.arange(MAX)[None, :] < index}
outs = {name: jax.nn.dot_product_attention(q, k, v, mask=m) for name, m in masks.items()}
for name, m in masks.items():
    row = "".join("1" if x else "." for x in np.asarray(m[0, :40]))
    print(f"{name:21s} {row}  max |out - reference| = {float(jnp.abs(outs[name] - reference).max()):.1e}")
assert jnp.allclose(jax.nn.dot_product_attention(q, k, v, is_causal=True), outs["tril(ones((1, MAX)))"])
assert jnp.allclose(outs["tril(ones((1, MAX)))"], v[:, :1])  # it attended to key 0 alone
assert jnp.allclose(outs["k_pos < cache index"], reference, atol=1e-5)
