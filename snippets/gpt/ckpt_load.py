"""GPT-2 from a Hugging Face checkpoint (model.safetensors) into Flax NNX, logits checked against transformers."""
import os
import tempfile

os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # save_pretrained's progress bar goes to stderr
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
import numpy as np
import jax
import jax.numpy as jnp
import torch
from flax import nnx
from safetensors.numpy import load_file, save_file
from transformers import GPT2Config, GPT2LMHeadModel
from transformers.utils import logging as hf_logging

hf_logging.disable_progress_bar()  # no progress bar on stderr, whatever the version reads from the environment


class GPT2Attention(nnx.Module):
    def __init__(self, d, heads, *, rngs):
        self.heads = heads
        self.c_attn = nnx.Linear(d, 3 * d, rngs=rngs)  # HF's Conv1D: the same (in, out) kernel
        self.c_proj = nnx.Linear(d, d, rngs=rngs)

    def __call__(self, x):
        b, t, d = x.shape
        q, k, v = (a.reshape(b, t, self.heads, d // self.heads) for a in jnp.split(self.c_attn(x), 3, axis=-1))
        return self.c_proj(jax.nn.dot_product_attention(q, k, v, is_causal=True).reshape(b, t, d))


class GPT2MLP(nnx.Module):
    def __init__(self, d, *, rngs):
        self.c_fc = nnx.Linear(d, 4 * d, rngs=rngs)
        self.c_proj = nnx.Linear(4 * d, d, rngs=rngs)
        self.approximate = True  # HF's "gelu_new" is the tanh form; torch's nn.GELU() default is the exact one

    def __call__(self, x):
        return self.c_proj(nnx.gelu(self.c_fc(x), approximate=self.approximate))


class GPT2Block(nnx.Module):
    def __init__(self, d, heads, *, rngs):
        self.ln_1 = nnx.LayerNorm(d, epsilon=1e-5, rngs=rngs)
        self.attn = GPT2Attention(d, heads, rngs=rngs)
        self.ln_2 = nnx.LayerNorm(d, epsilon=1e-5, rngs=rngs)
        self.mlp = GPT2MLP(d, rngs=rngs)

    def __call__(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT2(nnx.Module):
    """GPT-2 with HF's attribute names, so that a checkpoint name is a path into the model."""
    def __init__(self, cfg, *, rngs):
        self.wte = nnx.Embed(cfg.vocab_size, cfg.n_embd, rngs=rngs)
        self.wpe = nnx.Embed(cfg.n_positions, cfg.n_embd, rngs=rngs)
        self.h = nnx.List([GPT2Block(cfg.n_embd, cfg.n_head, rngs=rngs) for _ in range(cfg.n_layer)])
        self.ln_f = nnx.LayerNorm(cfg.n_embd, epsilon=cfg.layer_norm_epsilon, rngs=rngs)

    def __call__(self, idx):
        x = self.wte(idx) + self.wpe(jnp.arange(idx.shape[1]))
        for block in self.h:
            x = block(x)
        return self.wte.attend(self.ln_f(x))  # tied: the output layer is the input embedding, transposed


LEAF = {"Linear": {"weight": "kernel", "bias": "bias"}, "LayerNorm": {"weight": "scale", "bias": "bias"},
        "Embed": {"weight": "embedding"}}


def load_gpt2(model, tensors):
    """Write every tensor of a HF GPT-2 file into `model`; return the names it skipped."""
    written, skipped = set(), []
    for name, array in tensors.items():
        parts = name.removeprefix("transformer.").split(".")  # GPT2LMHeadModel files carry the prefix
        if parts[-2:] in (["attn", "bias"], ["attn", "masked_bias"]) or parts[0] == "lm_head":
            skipped.append(name)  # causal-mask buffers of older files; lm_head is wte (tied)
            continue
        module = model
        for p in parts[:-1]:
            module = module[int(p)] if p.isdigit() else getattr(module, p)
        var = getattr(module, LEAF[type(module).__name__][parts[-1]])
        # Conv1D stores (in, out) like nnx.Linear: no transpose. Check, since var[...] = x would broadcast and cast.
        assert var.shape == array.shape and var.dtype == array.dtype, (name, array.shape, var.shape)
        var[...] = jnp.asarray(array)
        written.add(name.removeprefix("transformer."))
    assert len(written) == len(jax.tree.leaves(nnx.state(model, nnx.Param)))  # every Param, once
    return skipped


on_cpu = jax.default_backend() == "cpu"
# The real GPT-2 small (124M) on a GPU or TPU; the same code at a smaller size on the CPU.
cfg = GPT2Config() if not on_cpu else GPT2Config(n_layer=2, n_embd=128, n_head=4, n_positions=64, vocab_size=1000)
cfg.bos_token_id = cfg.eos_token_id = cfg.vocab_size - 1
torch.manual_seed(0)
hf = GPT2LMHeadModel(cfg).eval()  # random weights from a config: nothing is downloaded
with tempfile.TemporaryDirectory() as folder:
    hf.save_pretrained(folder)
    print("files:", sorted(os.listdir(folder)))
    tensors = load_file(os.path.join(folder, "model.safetensors"))  # NumPy arrays: no torch needed
print(f"{len(tensors)} tensors; lm_head.weight in the file: {'lm_head.weight' in tensors}")
for name in ("transformer.wte.weight", "transformer.h.0.attn.c_attn.weight", "transformer.h.0.mlp.c_fc.weight"):
    print(f"  {name:36s} {tensors[name].shape} {tensors[name].dtype}")
assert tensors["transformer.h.0.attn.c_attn.weight"].shape == (cfg.n_embd, 3 * cfg.n_embd)  # (in, out)
assert "lm_head.weight" not in tensors

model = GPT2(cfg, rngs=nnx.Rngs(0))
print("skipped:", load_gpt2(model, tensors))
abstract = nnx.eval_shape(lambda: GPT2(GPT2Config(), rngs=nnx.Rngs(0)))  # shapes only, no memory
n_small = sum(x.size for x in jax.tree.leaves(nnx.state(abstract, nnx.Param)))
print(f"GPT-2 small: {n_small:,} parameters, one copy of wte")

# An older file: no "transformer." prefix, and the attn.bias / attn.masked_bias buffers.
old = {k.removeprefix("transformer."): v for k, v in tensors.items()}
for i in range(cfg.n_layer):
    old[f"h.{i}.attn.bias"] = np.tril(np.ones((1, 1, cfg.n_positions, cfg.n_positions), bool))
    old[f"h.{i}.attn.masked_bias"] = np.array(-1e4, np.float32)
with tempfile.TemporaryDirectory() as folder:
    save_file(old, os.path.join(folder, "old.safetensors"))
    model_old = GPT2(cfg, rngs=nnx.Rngs(1))
    skipped = load_gpt2(model_old, load_file(os.path.join(folder, "old.safetensors")))
print(f"older layout: skipped {len(skipped)} buffers, e.g. {skipped[:2]}")
assert len(skipped) == 2 * cfg.n_layer

idx_np = np.random.default_rng(0).integers(0, cfg.vocab_size, size=(2, 64))
idx = jnp.asarray(idx_np)
with torch.no_grad():  # eval mode (dropout off) was set when the model was built
    ref = hf(torch.from_numpy(idx_np)).logits.numpy()


def max_diff(m):
    with jax.default_matmul_precision("highest"):  # a comparison: float32 products, not one bfloat16 pass (TPU)
        return float(np.abs(np.asarray(m(idx)) - ref).max())


diff, tol = max_diff(model), 1e-5 if on_cpu else 1e-4
print(f"logits {ref.shape}: max |logit| = {np.abs(ref).max():.2f}, max |NNX - transformers| = {diff:.1e}")
assert max_diff(model_old) == diff  # both layouts load the same weights
wrong = {}  # three porting mistakes, one at a time, each undone after
for b in model.h:
    b.mlp.approximate = False
wrong["exact GELU"] = max_diff(model)
for b in model.h:
    b.mlp.approximate, b.ln_1.epsilon, b.ln_2.epsilon = True, 1e-6, 1e-6
model.ln_f.epsilon = 1e-6
wrong["LayerNorm eps 1e-6"] = max_diff(model)
for b in model.h:
    b.ln_1.epsilon = b.ln_2.epsilon = 1e-5
    b.attn.c_proj.kernel[...] = b.attn.c_proj.kernel[...].T  # (d, d): the shape check cannot see it
model.ln_f.epsilon = 1e-5
wrong["attn.c_proj transposed"] = max_diff(model)
for name, err in wrong.items():
    print(f"  with {name:24s} max |NNX - transformers| = {err:.1e}")
assert diff < tol < min(wrong.values())  # the tolerance separates rounding from each mistake
if not on_cpu:  # the accelerator's default precision, for contrast (one bfloat16 pass on a TPU)
    for b in model.h:
        b.attn.c_proj.kernel[...] = b.attn.c_proj.kernel[...].T
    rough = float(np.abs(np.asarray(model(idx)) - ref).max())
    print(f"default matmul precision on {jax.default_backend()}: max |NNX - transformers| = {rough:.1e}")
    if jax.default_backend() == "tpu":
        assert rough > tol
