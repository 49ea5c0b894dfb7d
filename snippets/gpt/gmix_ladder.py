"""An MFU ladder for the GPT-2 train step (Flax NNX, optax AdamW): batch, bfloat16, flash attention, remat, loss."""
# The timings this program prints differ from run to run and from machine to machine.
import collections
import concurrent.futures
import dataclasses
import math
import re
import tempfile
import time
import warnings
from pathlib import Path

import jax
import jax.numpy as jnp
import optax
from flax import nnx

START = time.perf_counter()
backend = jax.default_backend()
ON_TPU = backend == "tpu"
kind = jax.devices()[0].device_kind
# Dense bfloat16 peak (FLOP/s) and HBM bandwidth (bytes/s) of one chip, from Google Cloud's pages
# docs.cloud.google.com/tpu/docs/{v4,v5e,v5p,v6e} (as in performance/mfu.md's table).
PEAKS = {"TPU v4": (275e12, 1200e9), "TPU v5 lite": (197e12, 819e9), "TPU v5": (459e12, 2765e9),
         "TPU v6 lite": (918e12, 1638e9)}
peak, bandwidth = PEAKS.get(kind, (None, None))
if backend in ("tpu", "gpu"):  # GPT-2 124M, vocabulary padded to a multiple of 128 as nanoGPT does
    LAYERS, D, HEADS, SEQ, VOCAB, STEPS, MAX_BATCH = 12, 768, 12, 1024, 50304, 10, 64
else:  # the CPU: a tiny GPT-2 of the same form, through the same code
    LAYERS, D, HEADS, SEQ, VOCAB, STEPS, MAX_BATCH = 2, 64, 4, 64, 256, 3, 8
BLOCKS = (128, 256, 512) if ON_TPU else ()  # flash attention's block sizes, searched on a TPU only
print(f"{kind} ({backend}): {LAYERS} layers, d_model {D}, {HEADS} heads, seq {SEQ}, vocab {VOCAB}; "
      + (f"peak {peak / 1e12:.0f} TFLOP/s, HBM {bandwidth / 1e9:.0f} GB/s" if peak
         else "no peak known for this device: times only, no MFU" + (" (CPU times)" if backend == "cpu" else "")))


@dataclasses.dataclass(frozen=True)
class Rung:
    matmul: type = jnp.float32  # dtype of the Linear layers, the attention and the head
    stream: type = jnp.float32  # dtype of the embeddings, the residual stream and the LayerNorms
    attention: str = "xla"  # "xla", or "flash<block>" for the Pallas TPU kernel
    remat: bool = False  # each block under jax.checkpoint, saving the products with the weights
    chunks: int = 1  # the head and loss in this many pieces of the batch, each recomputed in the backward

    @property
    def name(self):
        return ", ".join([jnp.dtype(self.matmul).name, self.attention.replace("flash", "flash ")]
                         + ["remat"] * self.remat + [f"loss in {self.chunks}"] * (self.chunks > 1))


def attend(q, k, v, kernel):  # q, k, v: (batch, time, heads, head_dim)
    if kernel == "xla":  # the scores (batch, heads, time, time) go through HBM; the softmax runs in float32
        return jax.nn.dot_product_attention(q, k, v, is_causal=True, implementation="xla")
    from jax.experimental.pallas.ops.tpu.flash_attention import BlockSizes, flash_attention
    b = int(kernel.removeprefix("flash"))
    sizes = BlockSizes(block_q=b, block_k_major=b, block_k=b, block_b=1, block_q_major_dkv=b, block_k_major_dkv=b,
                       block_k_dkv=b, block_q_dkv=b, block_k_major_dq=b, block_k_dq=b, block_q_dq=b)
    q, k, v = (a.transpose(0, 2, 1, 3) for a in (q, k, v))  # the kernel's layout (batch, heads, time, head_dim)
    y = flash_attention(q, k, v, causal=True, sm_scale=q.shape[-1] ** -0.5, block_sizes=sizes)
    return y.transpose(0, 2, 1, 3)


# The classes of the section's GPT-2 port (gpt2-checkpoint), with the dtypes of gstep_bf16 and a kernel choice.
class GPT2Attention(nnx.Module):
    def __init__(self, d, heads, rung, *, rngs):
        self.heads, self.kernel = heads, rung.attention
        self.c_attn = nnx.Linear(d, 3 * d, dtype=rung.matmul, rngs=rngs)
        self.c_proj = nnx.Linear(d, d, dtype=rung.matmul, rngs=rngs)

    def __call__(self, x):
        b, t, d = x.shape
        with jax.named_scope("projections"):
            qkv = jnp.split(self.c_attn(x), 3, axis=-1)
        q, k, v = (a.reshape(b, t, self.heads, d // self.heads) for a in qkv)
        with jax.named_scope("attention"):  # the scores, their softmax and the weighted values
            y = attend(q, k, v, self.kernel)
        with jax.named_scope("projections"):
            return self.c_proj(y.reshape(b, t, d))


class GPT2MLP(nnx.Module):
    def __init__(self, d, rung, *, rngs):
        self.c_fc = nnx.Linear(d, 4 * d, dtype=rung.matmul, rngs=rngs)
        self.c_proj = nnx.Linear(4 * d, d, dtype=rung.matmul, rngs=rngs)

    def __call__(self, x):
        return self.c_proj(nnx.gelu(self.c_fc(x), approximate=True))  # GPT-2's "gelu_new", the tanh form


class GPT2Block(nnx.Module):
    def __init__(self, d, heads, rung, *, rngs):
        self.ln_1 = nnx.LayerNorm(d, epsilon=1e-5, dtype=rung.stream, rngs=rngs)
        self.attn = GPT2Attention(d, heads, rung, rngs=rngs)
        self.ln_2 = nnx.LayerNorm(d, epsilon=1e-5, dtype=rung.stream, rngs=rngs)
        self.mlp = GPT2MLP(d, rung, rngs=rngs)

    def __call__(self, x):
        x = x + self.attn(self.ln_1(x))  # float32 + bfloat16 stays float32
        with jax.named_scope("mlp"):
            return x + self.mlp(self.ln_2(x))


class GPT2(nnx.Module):
    def __init__(self, rung, *, rngs):
        self.rung = rung
        self.wte = nnx.Embed(VOCAB, D, dtype=rung.stream, rngs=rngs)
        self.wpe = nnx.Embed(SEQ, D, dtype=rung.stream, rngs=rngs)
        self.h = nnx.List([GPT2Block(D, HEADS, rung, rngs=rngs) for _ in range(LAYERS)])
        self.ln_f = nnx.LayerNorm(D, epsilon=1e-5, dtype=rung.stream, rngs=rngs)

    def __call__(self, idx):  # the last hidden states; the tied head is in `loss_fn`
        x = self.wte(idx) + self.wpe(jnp.arange(idx.shape[1]))
        policy = jax.checkpoint_policies.dots_with_no_batch_dims_saveable  # keep x @ W, recompute the rest
        for block in self.h:  # a Python loop: every layer is in the program and in its flop count
            x = nnx.remat(lambda blk, x: blk(x), policy=policy)(block, x) if self.rung.remat else block(x)
        return self.ln_f(x)


def loss_fn(model, idx):
    h, labels = model(idx[:, :-1]), idx[:, 1:]
    rung, wte = model.rung, model.wte.embedding[...]

    @jax.named_scope("head_loss")
    def head_loss(h, labels):  # tied head: logits = h @ wte.T, in the matmul dtype; the loss in float32
        logits = h.astype(rung.matmul) @ wte.astype(rung.matmul).T
        return optax.softmax_cross_entropy_with_integer_labels(logits.astype(jnp.float32), labels).sum()

    if rung.chunks > 1:  # only one piece's logits live at a time; the backward recomputes each piece's
        head_loss = jax.checkpoint(head_loss)
    rows = idx.shape[0] // rung.chunks
    total = sum(head_loss(h[i:i + rows], labels[i:i + rows]) for i in range(0, idx.shape[0], rows))
    return total / labels.size


decay = lambda params: jax.tree.map(lambda p: p.ndim >= 2, params)  # nanoGPT: decay matrices, not biases and scales
tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(6e-4, b1=0.9, b2=0.95, weight_decay=0.1, mask=decay))


def make_step(rung):
    graphdef = nnx.graphdef(nnx.eval_shape(lambda: GPT2(rung, rngs=nnx.Rngs(0))))

    def train_step(params, opt_state, idx):
        loss, grads = jax.value_and_grad(lambda p: loss_fn(nnx.merge(graphdef, p), idx))(params)
        with jax.named_scope("optimizer"):
            updates, opt_state = tx.update(grads, opt_state, params)
            return optax.apply_updates(params, updates), opt_state, loss

    return jax.jit(train_step, donate_argnums=(0, 1))


@jax.jit
def init():  # float32 master weights (param_dtype), the same for every rung, and AdamW's state
    params = nnx.state(GPT2(Rung(), rngs=nnx.Rngs(0)), nnx.Param)
    return params, tx.init(params)


def tokens(batch):  # the same batch every step: the loss must fall
    return jax.random.randint(jax.random.key(1), (batch, SEQ + 1), 0, VOCAB)


limit = (jax.devices()[0].memory_stats() or {}).get("bytes_limit")  # None on the CPU


PRINTED = set()
COMPILED = {}  # (rung, batch) -> (compiled step, bytes it needs), or None: out of memory at compile time


def compile_all(candidates):
    """Compile the steps of the (rung, batch) pairs not compiled yet, all at once in threads."""
    todo = [c for c in dict.fromkeys(candidates) if c not in COMPILED]
    if not todo:
        return
    shapes = jax.eval_shape(init)

    def compile_(lowered):
        try:
            compiled = lowered.compile()
        except Exception as error:  # XLA's out-of-memory error at compile time
            if "RESOURCE_EXHAUSTED" not in str(error):
                raise
            return None
        m = compiled.memory_analysis()  # arguments, outputs less the donated buffers they reuse, temporaries
        return compiled, m.argument_size_in_bytes + m.output_size_in_bytes - m.alias_size_in_bytes + m.temp_size_in_bytes

    with concurrent.futures.ThreadPoolExecutor(len(todo)) as pool:  # each compiles while the next is traced
        futures = [pool.submit(compile_, make_step(r).lower(*shapes, jax.ShapeDtypeStruct((b, SEQ + 1), jnp.int32)))
                   for r, b in todo]
        COMPILED.update(zip(todo, (f.result() for f in futures)))


def fitting(rung, batches):
    """The largest batch whose step fits 90 % of the device's memory (no limit known: the largest tried)."""
    compile_all([(rung, b) for b in batches])
    fits = {}
    for b in batches:
        c, need = COMPILED[rung, b] or (None, None)
        if need and (limit is None or need < 0.9 * limit):
            fits[b] = (c, need)
        if (rung, b) not in PRINTED:
            PRINTED.add((rung, b))
            print(f"    {rung.name}, batch {b}: " + (f"needs {need / 2**30:.2f} GiB" if need else "out of memory at compile time")
                  + (f" of {limit / 2**30:.2f} GiB" if limit else ""))
    if not fits:
        raise SystemExit(f"{rung.name}: no batch of {batches} fits")
    return max(fits), fits[max(fits)]


def run(batch, compiled, steps=STEPS):
    """Seconds per step (steps in flight, one block at the end, after a warm-up step) and the losses."""
    params, opt_state = init()
    idx = tokens(batch)
    params, opt_state, loss = compiled(params, opt_state, idx)  # warm-up
    jax.block_until_ready(loss)
    losses, start = [], time.perf_counter()
    for _ in range(steps):
        params, opt_state, loss = compiled(params, opt_state, idx)
        losses.append(loss)  # kept on the device: no host round trip per step
    jax.block_until_ready((params, opt_state, losses))
    seconds = (time.perf_counter() - start) / steps
    return seconds, [float(x) for x in jax.device_get(losses)]


n_params = sum(p.size for p in jax.tree.leaves(jax.eval_shape(init)[0])) - SEQ * D  # nanoGPT's N: without wpe
palm_per_token = 6 * n_params + 12 * LAYERS * D * SEQ  # PaLM (Chowdhery et al. 2022, app. B): + attention
print(f"N = {n_params / 1e6:.1f} M parameters without the position embedding (the token embedding is the tied "
      f"head); flops per token: 6N {6 * n_params:.3e}, PaLM 6N + 12·L·d·T {palm_per_token:.3e}")


def report(rung, batch, compiled, need, seconds, losses):
    cost = compiled.cost_analysis()
    flops, moved, toks = cost["flops"], cost["bytes accessed"], batch * SEQ
    palm, six_n = palm_per_token * toks, 6 * n_params * toks
    line = f"  batch {batch}: step {seconds * 1e3:.2f} ms, {toks / seconds:,.0f} tokens/s"
    if peak:
        line += (f", MFU {palm / seconds / peak:.1%} (PaLM count; 6N: {six_n / seconds / peak:.1%}; "
                 f"compiled count: {flops / seconds / peak:.1%})")
    print(line + f"; loss {losses[0]:.3f} -> {losses[-1]:.3f}")
    print(f"    compiled {flops:.3e} flops = {flops / palm:.2f} x PaLM; {moved / 1e9:.2f} GB accessed"
          + (f"; bounds: compute {flops / peak * 1e3:.2f} ms, memory {moved / bandwidth * 1e3:.2f} ms; "
             f"measured/bound {seconds / (flops / peak):.2f}, {seconds / (moved / bandwidth):.2f}" if peak else ""))
    assert all(math.isfinite(x) for x in losses) and losses[-1] < losses[0], losses  # a real training step
    if peak:
        assert 0 < palm / seconds / peak < 1
    return dict(rung=rung, batch=batch, compiled=compiled, need=need, seconds=seconds, flops=flops, palm=palm,
                per_token=seconds / toks)


ladder = []


def climb(rung, batches):
    batch, (compiled, need) = fitting(rung, batches)
    seconds, losses = run(batch, compiled)
    ladder.append(report(rung, batch, compiled, need, seconds, losses))
    return ladder[-1]


def attention_ms(kernel, batch):
    """Forward and gradient of one layer's attention alone, ms a call (20 calls in flight, one block)."""
    q, k, v = (jax.random.normal(key, (batch, SEQ, HEADS, D // HEADS), jnp.bfloat16)
               for key in jax.random.split(jax.random.key(2), 3))
    grad = jax.jit(jax.grad(lambda q, k, v: attend(q, k, v, kernel).astype(jnp.float32).sum(), argnums=(0, 1, 2)))
    jax.block_until_ready(grad(q, k, v))  # compiled and warm
    start = time.perf_counter()
    outs = [grad(q, k, v) for _ in range(20)]
    jax.block_until_ready(outs)
    return (time.perf_counter() - start) / 20 * 1e3


up = lambda *bs: tuple(sorted({x for b in bs for x in (b, 2 * b) if x <= MAX_BATCH}))  # keep or double a batch
F32, BF16 = Rung(), Rung(matmul=jnp.bfloat16)
first = tuple(b for b in (4, 8, 16) if b <= MAX_BATCH)
compile_all([(F32, b) for b in first] + [(BF16, b) for b in first[1:]])  # rungs 1 and 2 at once
print("1. float32 weights and compute, XLA attention: the largest batch that fits")
one = climb(F32, first)
print("2. bfloat16 compute (float32 weights, residual stream, LayerNorm and loss)")
two = climb(BF16, up(one["batch"]))
print("3. fused attention: the Pallas TPU flash kernel, block sizes searched on the attention alone")
if BLOCKS:  # forward and gradient of one layer's attention at rung 2's batch; the fastest block size wins
    xla_ms = attention_ms("xla", two["batch"])
    trials = {block: attention_ms(f"flash{block}", two["batch"]) for block in BLOCKS}
    print(f"    one layer's attention, forward and gradient, batch {two['batch']}: XLA {xla_ms:.2f} ms; flash "
          + ", ".join(f"blocks {block} {ms:.2f} ms" for block, ms in trials.items()))
    FUSED = dataclasses.replace(BF16, attention=f"flash{min(trials, key=trials.get)}")
else:
    print("    the Pallas TPU kernel needs a TPU: on this backend the rung is rung 2, XLA's attention")
    FUSED = BF16
REMAT = dataclasses.replace(FUSED, remat=True)
compile_all([(FUSED, b) for b in up(two["batch"])] + [(REMAT, b) for b in up(*up(two["batch"]))])  # rungs 3, 4
three = climb(FUSED, up(two["batch"])) if BLOCKS else two
print("4. a remat policy, dots_with_no_batch_dims_saveable, for a larger batch")
b4, _ = fitting(REMAT, up(three["batch"]))
compile_all([(dataclasses.replace(FUSED, chunks=4), b) for b in up(three["batch"])]  # rung 5 on either base
            + [(dataclasses.replace(REMAT, chunks=4), b) for b in up(b4)])
four = climb(REMAT, up(three["batch"]))
base = min((three, four), key=lambda r: r["per_token"])  # the faster per token, remat or not
print(f"5. the head and loss in 4 pieces of the batch, on top of rung {3 if base is three else 4} ({base['rung'].name})")
five = climb(dataclasses.replace(base["rung"], chunks=4), up(base["batch"]))
best = min(ladder, key=lambda r: r["per_token"])
print(f"best: {best['rung'].name}, batch {best['batch']}, {1 / best['per_token']:,.0f} tokens/s"
      + (f", MFU {best['palm'] / best['seconds'] / peak:.1%} (PaLM count)" if peak else " (CPU times: no MFU)"))

# The best rung's profile: device time per step, and where it goes (ops and the named scopes of the model).
hlo = best["compiled"].as_text()
op_name = dict(re.findall(r'%([\w.\-]+) = .*?metadata=\{op_name="([^"]*)"', hlo))
params, opt_state = init()
idx = tokens(best["batch"])
params, opt_state, loss = best["compiled"](params, opt_state, idx)
jax.block_until_ready(loss)
options = jax.profiler.ProfileOptions()
options.python_tracer_level = 0
with tempfile.TemporaryDirectory() as log_dir:
    with jax.profiler.trace(log_dir, profiler_options=options):
        for _ in range(3):
            params, opt_state, loss = best["compiled"](params, opt_state, idx)
        jax.block_until_ready((params, opt_state, loss))
    profile = jax.profiler.ProfileData.from_file(str(next(Path(log_dir).rglob("*.xplane.pb"))))
with warnings.catch_warnings():  # jaxlib 0.12 warns once that its stats types have no __module__: harmless
    warnings.simplefilter("ignore", DeprecationWarning)
    events = [(plane.name, line.name, e.name, e.duration_ns, dict(e.stats))
              for plane in profile.planes for line in plane.lines for e in line.events]
device = [e for e in events if e[0].startswith("/device:")]
if device:  # a TPU or GPU: the device plane's "XLA Ops" line, one event per HLO op; "XLA Modules", one per step
    ops = [(name.split(" = ")[0].lstrip("%"), ns) for _, line, name, ns, _ in device if line == "XLA Ops"]
    steps = [ns for _, line, name, ns, _ in device if line == "XLA Modules" and name.startswith("jit_train_step")]
    if steps:
        print(f"profile: device time {sum(steps) / len(steps) / 1e6:.2f} ms a step "
              f"(wall {best['seconds'] * 1e3:.2f} ms), {len(steps)} steps")
else:  # XLA:CPU: the op events of its thread pools name their program and instruction
    ops = [(stats["hlo_op"], ns) for *_, ns, stats in events if stats.get("hlo_module") == "jit_train_step"]
total, scopes = collections.Counter(), collections.Counter()
for name, ns in ops:
    total[name] += ns
    where = op_name.get(name, "")
    scope = next((s for s in ("head_loss", "optimizer", "projections", "attention", "mlp") if s in where), "other")
    scopes[("backward " if "transpose(" in where and scope != "optimizer" else "") + scope] += ns
whole = sum(total.values())
if whole:
    print("profile, op time by scope: " + ", ".join(f"{s} {ns / whole:.0%}" for s, ns in scopes.most_common()))
    print("profile, top ops:")
    for name, ns in total.most_common(6):
        print(f"  {ns / whole:6.1%}  {name[:28]:28s} {op_name.get(name, '(no op_name)')[-80:]}")
else:
    print("profile: no op events found for jit_train_step")
print(f"the whole ladder took {time.perf_counter() - START:.0f} s, compilations included")
if backend == "cpu":  # what holds on the CPU's tiny model
    assert {"attention", "projections", "mlp", "head_loss", "optimizer"} <= {s.split()[-1] for s in scopes}
    assert 0.8 < one["flops"] / one["palm"] < 1.5  # the PaLM count leaves out norms, softmax, GELU, the update
    assert four["flops"] / four["palm"] > three["flops"] / three["palm"]  # remat adds the recomputed forward ops
    print(f"CPU: remat needs {four['need'] / three['need']:.2f} x the memory of rung 3 at batch {four['batch']}")
    assert four["batch"] == three["batch"] and four["need"] < three["need"]  # at the CPU's cap: remat saves memory
