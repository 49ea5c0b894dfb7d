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


def load_gpt2(cfg, tensors, mesh, param_dtype=jnp.float32):
    """Build GPT-2 from a HF GPT-2 file, one copy of the weights; return the model and the names it skipped."""
    with jax.set_mesh(mesh):  # the mesh that with_partitioning annotations, if a model had them, would name
        abstract = nnx.eval_shape(lambda: GPT2(cfg, rngs=nnx.Rngs(0)))  # shapes and dtypes only: no weights
    graphdef, abstract_state = nnx.split(abstract)
    slots = dict(nnx.to_flat_state(abstract_state))  # path -> abstract Variable (a ShapeDtypeStruct inside)
    # Each Variable's sharding metadata on the mesh; GPT2 declares none, so every spec is P(): replicated.
    shardings = {path: v.get_value() for path, v in nnx.to_flat_state(nnx.get_named_sharding(abstract_state, mesh))}
    filled, skipped, casts = {}, [], {}
    for name, array in tensors.items():
        parts = name.removeprefix("transformer.").split(".")  # GPT2LMHeadModel files carry the prefix
        if parts[-2:] in (["attn", "bias"], ["attn", "masked_bias"]) or parts[0] == "lm_head":
            skipped.append(name)  # causal-mask buffers of older files; lm_head is wte (tied)
            continue
        module = abstract
        for p in parts[:-1]:
            module = module[int(p)] if p.isdigit() else getattr(module, p)
        path = (*(int(p) if p.isdigit() else p for p in parts[:-1]), LEAF[type(module).__name__][parts[-1]])
        var = slots[path]
        # Conv1D stores (in, out) like nnx.Linear: no transpose. Check the shape; cast the dtype on purpose.
        assert var.shape == array.shape, (name, array.shape, var.shape)
        assert jnp.issubdtype(array.dtype, jnp.floating), (name, array.dtype)  # a float policy for float tensors
        if array.dtype != param_dtype:
            key = f"{array.dtype} -> {np.dtype(param_dtype)}"
            casts[key] = casts.get(key, 0) + 1
            array = array.astype(param_dtype)  # on the host, one tensor at a time
        assert path not in filled, name  # every Param once
        filled[path] = var.replace(jax.device_put(array, shardings[path]))  # straight to its device(s)
    assert filled.keys() == slots.keys(), slots.keys() - filled.keys()  # and none left abstract
    for key, n in casts.items():
        print(f"  cast {key}: {n} tensors")
    return nnx.merge(graphdef, nnx.from_flat_state(filled)), skipped


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

mesh = jax.make_mesh((jax.device_count(),), ("data",))  # every device of the process; one on the CPU build
model, skipped = load_gpt2(cfg, tensors, mesh)
print("skipped:", skipped)
kernel = model.h[0].attn.c_attn.kernel[...]
print(f"c_attn kernel: {kernel.dtype}, {kernel.sharding.spec} on {len(kernel.sharding.device_set)} device(s)")
assert kernel.sharding.is_fully_replicated and kernel.dtype == jnp.float32
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
    model_old, skipped = load_gpt2(cfg, load_file(os.path.join(folder, "old.safetensors")), mesh)
print(f"older layout: skipped {len(skipped)} buffers, e.g. {skipped[:2]}")
assert len(skipped) == 2 * cfg.n_layer

# Most files on the Hub now hold bfloat16 (or float16): the same weights, saved in bfloat16.
half = {k: v.astype(jnp.bfloat16) for k, v in tensors.items()}
with tempfile.TemporaryDirectory() as folder:
    save_file(half, os.path.join(folder, "bf16.safetensors"))
    half = load_file(os.path.join(folder, "bf16.safetensors"))
print("bfloat16 file:", {str(v.dtype) for v in half.values()})
print("loaded with the default param_dtype=float32:")
model_half, _ = load_gpt2(cfg, half, mesh)
for name, v in nnx.to_flat_state(nnx.state(model_half, nnx.Param)):
    assert v.dtype == jnp.float32, name  # cast up, exactly: every bfloat16 value is a float32 value
assert np.array_equal(model_half.wte.embedding[...], half["transformer.wte.weight"].astype(np.float32))
print("the float32 file, loaded with param_dtype=bfloat16:")
model_bf16, _ = load_gpt2(cfg, tensors, mesh, param_dtype=jnp.bfloat16)  # a reader's choice, rounding each weight
assert model_bf16.h[0].mlp.c_fc.kernel.dtype == jnp.bfloat16

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
