"""Sampling (temperature, top-k, top-p, a key per step), EOS per row and left-padded prompts in one jit, against transformers."""
import os

os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
import jax
import jax.numpy as jnp
import numpy as np
import torch
from flax import nnx
from transformers import GPT2Config, GPT2LMHeadModel
from transformers.generation import LogitsProcessorList, TemperatureLogitsWarper, TopKLogitsWarper, TopPLogitsWarper
from transformers.utils import logging as hf_logging

hf_logging.disable_progress_bar()
jax.config.update("jax_default_matmul_precision", "highest")  # a comparison with transformers: float32 products


class KVCache(nnx.Variable):
    """Decoding state: keys, values, the next write slot and each row's padding."""


class GPT2Attention(nnx.Module):
    def __init__(self, d, heads, *, rngs):
        self.heads = heads
        self.c_attn = nnx.Linear(d, 3 * d, rngs=rngs)
        self.c_proj = nnx.Linear(d, d, rngs=rngs)
        self.k = self.v = nnx.data(None)

    def init_cache(self, batch, max_len):
        d = self.c_proj.in_features
        self.k = KVCache(jnp.zeros((batch, self.heads, max_len, d // self.heads)))
        self.v = KVCache(jnp.zeros((batch, self.heads, max_len, d // self.heads)))

    def __call__(self, x, start, pad):
        b, t, d = x.shape
        q, k, v = (a.reshape(b, t, self.heads, d // self.heads).swapaxes(1, 2) for a in jnp.split(self.c_attn(x), 3, -1))
        self.k[...] = jax.lax.dynamic_update_slice(self.k[...], k, (0, 0, start, 0))
        self.v[...] = jax.lax.dynamic_update_slice(self.v[...], v, (0, 0, start, 0))
        s = jnp.einsum("bhqd,bhkd->bhqk", q, self.k[...]) / (d // self.heads) ** 0.5
        k_slot, q_slot = jnp.arange(self.k.shape[2]), start + jnp.arange(t)
        # a key is seen if it is not in the future and not padding: a per-row start of the valid slots
        mask = (k_slot[None, None, :] <= q_slot[None, :, None]) & (k_slot[None, None, :] >= pad[:, None, None])
        # a finite fill, as transformers uses: a pad query that sees nothing gets a uniform row, not NaN
        p = jax.nn.softmax(jnp.where(mask[:, None], s, jnp.finfo(s.dtype).min), axis=-1)
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

    def __call__(self, x, start, pad):
        x = x + self.attn(self.ln_1(x), start, pad)
        return x + self.mlp(self.ln_2(x))


class GPT2(nnx.Module):
    def __init__(self, cfg, *, rngs):
        self.wte = nnx.Embed(cfg.vocab_size, cfg.n_embd, rngs=rngs)
        self.wpe = nnx.Embed(cfg.n_positions, cfg.n_embd, rngs=rngs)
        self.h = nnx.List([GPT2Block(cfg.n_embd, cfg.n_head, rngs=rngs) for _ in range(cfg.n_layer)])
        self.ln_f = nnx.LayerNorm(cfg.n_embd, epsilon=cfg.layer_norm_epsilon, rngs=rngs)
        self.index = self.pad = nnx.data(None)

    def init_cache(self, batch, max_len, pad):
        for block in self.h:
            block.attn.init_cache(batch, max_len)
        self.index = KVCache(jnp.zeros((), jnp.int32))
        self.pad = KVCache(pad)  # (batch,): left padding slots per row

    def __call__(self, idx):
        start, pad = self.index[...], self.pad[...]
        # position = slot - padding, the attention mask's cumsum - 1; 0 on padding, as transformers sets it
        pos = jnp.maximum(start + jnp.arange(idx.shape[1])[None, :] - pad[:, None], 0)
        x = self.wte(idx) + self.wpe(pos)
        for block in self.h:
            x = block(x, start, pad)
        self.index[...] = start + idx.shape[1]
        return self.wte.attend(self.ln_f(x))


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


def process(logits, temperature, top_k, top_p):
    """transformers' order: temperature, then top-k, then top-p; removed tokens get -inf."""
    x = logits / temperature
    if top_k:  # keep every logit at least the k-th largest (ties included)
        x = jnp.where(x < jax.lax.top_k(x, top_k)[0][..., -1:], -jnp.inf, x)
    if top_p < 1.0:  # drop the smallest tokens whose total probability stays within 1 - top_p
        order = jnp.argsort(x, axis=-1)  # ascending, as TopPLogitsWarper sorts
        cum = jnp.cumsum(jax.nn.softmax(jnp.take_along_axis(x, order, -1), axis=-1), axis=-1)
        drop = (cum <= 1 - top_p).at[..., -1].set(False)  # the most likely token always stays
        x = jnp.where(jnp.take_along_axis(drop, jnp.argsort(order, axis=-1), -1), -jnp.inf, x)
    return x


@nnx.jit(static_argnames=("new", "temperature", "top_k", "top_p", "eos", "pad_id"))
def generate(model, prompt, mask, key, *, new, temperature=0.0, top_k=0, top_p=1.0, eos=-1, pad_id=0):
    """Left-padded prompts (mask 0 on padding); greedy if temperature is 0; finished rows emit pad_id."""
    b, p = prompt.shape
    gen = nnx.clone(model)
    gen.init_cache(b, p + new, p - mask.sum(-1))

    def pick(logits, i):  # one key per step: fold the step number into the generation's key
        if temperature == 0.0:
            return logits.argmax(-1).astype(jnp.int32)
        return jax.random.categorical(jax.random.fold_in(key, i), process(logits, temperature, top_k, top_p))

    tok = pick(gen(prompt)[:, -1], 0)
    carry = (gen, jnp.full((b, new), pad_id).at[:, 0].set(tok), tok == eos, jnp.int32(1))

    def body(carry):
        gen, out, done, i = carry
        tok = jnp.where(done, pad_id, pick(gen(out[:, i - 1][:, None])[:, -1], i))
        return gen, out.at[:, i].set(tok), done | (tok == eos), i + 1

    _, out, done, steps = nnx.while_loop(lambda c: (c[3] < new) & ~c[2].all(), body, carry)
    return out, steps  # steps: the tokens per row actually generated (the loop stops when every row is done)


cfg = GPT2Config(n_layer=2, n_embd=128, n_head=4, n_positions=64, vocab_size=1000)  # small on every backend
cfg.bos_token_id = cfg.eos_token_id = None
torch.manual_seed(0)
hf = GPT2LMHeadModel(cfg).eval()
model = GPT2(cfg, rngs=nnx.Rngs(0))
load_gpt2(model, {k: v.numpy() for k, v in hf.state_dict().items()})
print(f"JAX backend {jax.default_backend()}, device {jax.devices()[0].device_kind}")

# 1. The logits processors, on the same logits: the same tokens removed, the same probabilities.
logits = np.random.default_rng(0).normal(0, 2, size=(4, cfg.vocab_size)).astype(np.float32)
for t, k, p in [(0.7, 50, 0.9), (1.3, 0, 0.5), (1.0, 5, 1.0), (0.5, 0, 0.95)]:
    hf_procs = LogitsProcessorList([TemperatureLogitsWarper(t)] + ([TopKLogitsWarper(k)] if k else [])
                                   + ([TopPLogitsWarper(p)] if p < 1 else []))
    theirs = hf_procs(None, torch.from_numpy(logits)).numpy()
    ours = np.asarray(process(jnp.asarray(logits), t, k, p))
    same_kept = (np.isfinite(ours) == np.isfinite(theirs)).all()
    prob_err = np.abs(jax.nn.softmax(ours, -1) - torch.softmax(torch.from_numpy(theirs), -1).numpy()).max()
    print(f"temperature {t}, top_k {k}, top_p {p}: kept per row {np.isfinite(ours).sum(-1).tolist()}, "
          f"same tokens kept {same_kept}, max |p - p_hf| {prob_err:.1e}")
    assert same_kept and prob_err < 1e-6

# 2. Draws: the frequencies of jax.random.categorical follow the processed probabilities.
filtered = process(jnp.asarray(logits[:1]), 0.7, 50, 0.9)
draws = jax.random.categorical(jax.random.key(1), filtered, shape=(200_000, 1))[:, 0]
freq = np.bincount(np.asarray(draws), minlength=cfg.vocab_size) / draws.size
probs = np.asarray(jax.nn.softmax(filtered[0]))
print(f"200,000 draws: max |frequency - probability| {np.abs(freq - probs).max():.4f}, "
      f"draws outside the kept tokens {int((freq[probs == 0] > 0).sum())}")
assert np.abs(freq - probs).max() < 0.01 and (freq[probs == 0] == 0).all()

# 3. Left-padded prompts of 8, 5, 3 and 6 tokens, greedy, against transformers' generate.
B, P, NEW, PAD = 4, 8, 24, 0
lengths = np.array([8, 5, 3, 6])
mask_np = (np.arange(P)[None, :] >= P - lengths[:, None]).astype(np.int64)  # 0 on the left padding
prompt_np = np.where(mask_np == 1, np.random.default_rng(1).integers(1, cfg.vocab_size, (B, P)), PAD)
prompt, mask = jnp.asarray(prompt_np), jnp.asarray(mask_np)
key = jax.random.key(0)
print("attention mask:", ["".join(map(str, row)) for row in mask_np.tolist()])


def hf_generate(**kw):
    with torch.no_grad():
        return hf.generate(torch.from_numpy(prompt_np), attention_mask=torch.from_numpy(mask_np),
                           max_new_tokens=NEW, pad_token_id=PAD, **kw)[:, P:].numpy()


greedy, _ = generate(model, prompt, mask, key, new=NEW)
ref = hf_generate(do_sample=False)
print("left-padded, greedy, equal to transformers' generate:", bool((np.asarray(greedy) == ref).all()))
assert (np.asarray(greedy) == ref).all()

# 4. EOS per row: the end-of-text token is the first token that row 1 emits after its first repeats.
first = np.asarray(greedy[1])
eos = int(first[np.argmax(first != first[0])])
stopped, steps = generate(model, prompt, mask, key, new=NEW, eos=eos)
ref = hf_generate(do_sample=False, eos_token_id=eos)
stopped = np.asarray(stopped)
ends = [int(np.argmax(row == eos)) + 1 if (row == eos).any() else NEW for row in stopped]
print(f"eos {eos}: tokens per row up to and including eos {ends}; the loop ran {int(steps)} steps, "
      f"generate returned {ref.shape[1]}")
print("with eos, equal to transformers' generate:", bool((stopped[:, :ref.shape[1]] == ref).all()))
assert (stopped[:, :ref.shape[1]] == ref).all() and int(steps) == ref.shape[1]  # both stop when every row is done
assert min(ends) < NEW and all((row[end:] == PAD).all() for row, end in zip(stopped, ends))  # pad after eos

# 5. Sampling in the same loop: a key per step; top-k 1 is greedy; the same key gives the same tokens.
sampled, _ = generate(model, prompt, mask, key, new=NEW, temperature=0.8, top_k=50, top_p=0.95)
again, _ = generate(model, prompt, mask, key, new=NEW, temperature=0.8, top_k=50, top_p=0.95)
other, _ = generate(model, prompt, mask, jax.random.key(1), new=NEW, temperature=0.8, top_k=50, top_p=0.95)
top1, _ = generate(model, prompt, mask, key, new=NEW, temperature=0.8, top_k=1)
print("sampled, row 0:", np.asarray(sampled)[0, :12].tolist())
print(f"same key, same tokens: {bool((sampled == again).all())}; another key: {int((sampled != other).sum())} "
      f"of {B * NEW} tokens differ; top_k=1 equals greedy: {bool((top1 == greedy).all())}")
assert (sampled == again).all() and (sampled != other).any() and (top1 == greedy).all()
