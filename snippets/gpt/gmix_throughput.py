"""Tokens/s and MFU of a GPT-2-shaped train step under four precision policies, and what limits it."""
# The timings this program prints differ from run to run and from machine to machine.
import functools
import math
import statistics
import time

import jax
import jax.numpy as jnp

backend = jax.default_backend()
peak = bandwidth = None
if backend == "tpu":
    from jax.experimental.pallas import tpu as pltpu

    info = pltpu.get_tpu_info()  # per TensorCore; a chip has num_cores of them
    peak = info.bf16_ops_per_second * info.num_cores  # FLOP/s of the chip's matrix units
    bandwidth = info.mem_bw_bytes_per_second * info.num_cores  # bytes/s of its HBM
if backend in ("tpu", "gpu"):  # GPT-2 124M: vocabulary padded to a multiple of 128, as nanoGPT does
    layers, d, heads, seq, vocab, batches, timed = 12, 768, 12, 1024, 50304, (4, 2), 5
else:  # the CPU: a tiny GPT of the same form
    layers, d, heads, seq, vocab, batches, timed = 2, 64, 4, 64, 256, (4,), 3
print(f"{jax.devices()[0].device_kind}: {layers} layers, d_model {d}, {heads} heads, seq {seq}, vocab {vocab}"
      + (f"; peak {peak / 1e12:.0f} TFLOP/s, HBM {bandwidth / 1e9:.0f} GB/s" if peak else
         "; JAX cannot tell this device's peak, so no MFU"))

# (Linear and attention dtype, residual-stream dtype, matmul precision)
POLICIES = {"float32, highest": (jnp.float32, jnp.float32, "highest"),
            "float32, default": (jnp.float32, jnp.float32, "default"),
            "autocast-like": (jnp.bfloat16, jnp.float32, "default"),
            "all bfloat16": (jnp.bfloat16, jnp.bfloat16, "default")}


def init(key, n_layers):
    """GPT-2's parameters in float32: normal(0.02) weights, zero biases, unit norm scales; head tied to wte."""
    keys = iter(jax.random.split(key, 4 * n_layers + 2))
    normal = lambda *shape: 0.02 * jax.random.normal(next(keys), shape)
    norm = lambda: dict(scale=jnp.ones(d), bias=jnp.zeros(d))
    blocks = [dict(ln_1=norm(), c_attn=dict(w=normal(d, 3 * d), b=jnp.zeros(3 * d)),
                   c_proj=dict(w=normal(d, d), b=jnp.zeros(d)), ln_2=norm(),
                   fc=dict(w=normal(d, 4 * d), b=jnp.zeros(4 * d)), proj=dict(w=normal(4 * d, d), b=jnp.zeros(d)))
              for _ in range(n_layers)]
    return dict(wte=normal(vocab, d), wpe=normal(seq, d), blocks=blocks, ln_f=norm())


def loss_fn(params, idx, matmul, stream):
    def linear(x, p):  # nnx.Linear(dtype=matmul): input, kernel and bias cast, product in `matmul`
        return x.astype(matmul) @ p["w"].astype(matmul) + p["b"].astype(matmul)

    def layer_norm(x, p):  # statistics in float32, output in the stream's dtype, as nnx.LayerNorm
        x32 = x.astype(jnp.float32)
        y = (x32 - x32.mean(-1, keepdims=True)) * jax.lax.rsqrt(x32.var(-1, keepdims=True) + 1e-5)
        return (y * p["scale"] + p["bias"]).astype(stream)

    x = (params["wte"][idx[:, :-1]] + params["wpe"]).astype(stream)
    b, t, _ = x.shape
    for blk in params["blocks"]:  # a Python loop: every layer is in the compiled program and its flop count
        q, k, v = jnp.split(linear(layer_norm(x, blk["ln_1"]), blk["c_attn"]), 3, axis=-1)
        q, k, v = (a.reshape(b, t, heads, d // heads) for a in (q, k, v))
        y = jax.nn.dot_product_attention(q, k, v, is_causal=True)  # softmax in float32
        x = x + linear(y.reshape(b, t, d), blk["c_proj"])  # float32 + bfloat16 stays float32
        x = x + linear(jax.nn.gelu(linear(layer_norm(x, blk["ln_2"]), blk["fc"]), approximate=False), blk["proj"])
    h = layer_norm(x, params["ln_f"])
    logits = (h.astype(matmul) @ params["wte"].astype(matmul).T).astype(jnp.float32)  # loss in float32
    labels = idx[:, 1:]
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), labels[..., None], axis=-1))


def sgd_step(params, idx, matmul, stream):
    loss, grads = jax.value_and_grad(loss_fn)(params, idx, matmul, stream)
    return jax.tree.map(lambda w, g: w - 0.1 * g, params, grads), loss


@functools.cache  # one compilation per (layers, policy, batch)
def compile_step(n_layers, policy, batch):
    matmul, stream, precision = POLICIES[policy]
    params = jax.eval_shape(lambda: init(jax.random.key(0), n_layers))
    with jax.default_matmul_precision(precision):
        return jax.jit(sgd_step, static_argnums=(2, 3), donate_argnums=0).lower(params, idx, matmul, stream).compile()


def compiled_step(n_layers, policy):
    """The compiled step for the current `idx`, and fresh float32 weights (the same under every policy)."""
    return compile_step(n_layers, policy, idx.shape[0]), init(jax.random.key(0), n_layers)


def timed_run(step, params):
    """Median seconds of `timed` calls after two warm-up calls, and the first and last loss."""
    times, losses = [], []
    for _ in range(timed + 2):
        start = time.perf_counter()
        params, loss = step(params, idx)
        loss.block_until_ready()  # the step's last output: the whole step has run
        times.append(time.perf_counter() - start)
        losses.append(float(loss))
    return statistics.median(times[2:]), losses


def fits(batch):
    """Whether the float32 step, the largest, compiles for this batch and its buffers fit the device's memory."""
    global idx
    idx = jax.random.randint(jax.random.key(1), (batch, seq + 1), 0, vocab)  # the same tokens every step
    try:
        step, _ = compiled_step(layers, "float32, highest")
    except Exception as error:  # XLA's out-of-memory error at compile time
        if "RESOURCE_EXHAUSTED" not in str(error):
            raise
        return False
    memory = step.memory_analysis()
    need = memory.temp_size_in_bytes + 2 * memory.argument_size_in_bytes  # temporaries, old and new weights
    limit = (jax.devices()[0].memory_stats() or {}).get("bytes_limit")  # None on the CPU
    print(f"batch {batch}: float32 step needs {need / 2**30:.2f} GiB"
          + (f" of {limit / 2**30:.2f} GiB" if limit else ""))
    return limit is None or need < 0.9 * limit


batch = next(b for b in batches if fits(b))  # the largest batch in `batches` that fits
tokens = batch * seq
n_params = sum(w.size for w in jax.tree.leaves(init(jax.random.key(0), layers))) - seq * d  # without wpe
six_n = 6 * n_params * tokens  # 2 flops per parameter per token forward, 4 backward
attention = 12 * layers * seq * d * tokens  # q @ k and weights @ v: 2 + 2 flops a product, x 3 with backward
print(f"batch {batch}, {tokens} tokens a step; {n_params / 1e6:.1f} M parameters without wpe; 6·N·tokens {six_n:.3e} flops, "
      f"+ attention 12·L·T·d·tokens {six_n + attention:.3e}")
unit, unit_name = (1e12, "TFLOP/s") if peak else (1e9, "GFLOP/s")
results = {}
for policy in POLICIES:
    step, params = compiled_step(layers, policy)  # with `idx` of the chosen batch
    cost = step.cost_analysis()
    cost = cost[0] if isinstance(cost, list) else cost  # a list of one dict on older jax
    flops, moved = cost["flops"], cost["bytes accessed"]
    seconds, losses = timed_run(step, params)
    results[policy] = seconds
    print(f"{policy}: step {seconds * 1e3:.2f} ms, {tokens / seconds:,.0f} tokens/s, "
          f"{flops / seconds / unit:.2f} {unit_name}; loss {losses[0]:.3f} -> {losses[-1]:.3f}")
    print(f"  cost_analysis {flops:.3e} flops = {flops / six_n:.2f} x 6·N·tokens, "
          f"{flops / (six_n + attention):.2f} x (6·N + attention); {moved / 1e9:.2f} GB accessed")
    if peak:
        print(f"  MFU {flops / seconds / peak:.1%} (with 6·N·tokens: {six_n / seconds / peak:.1%}); "
              f"bounds: flops/peak {flops / peak * 1e3:.2f} ms, bytes/bandwidth {moved / bandwidth * 1e3:.2f} ms")
    if backend in ("tpu", "gpu"):  # the same step with no block: embeddings, tied head and loss alone
        head_seconds, _ = timed_run(*compiled_step(0, policy))
        print(f"  embeddings, head and loss alone: {head_seconds * 1e3:.2f} ms ({head_seconds / seconds:.0%} of the step)")
    assert all(math.isfinite(v) for v in losses) and losses[-1] < losses[0]  # a real training step
    assert 0.8 < flops / (six_n + attention) < 1.5  # the estimate leaves out norms, softmax, GELU, the update

fastest = min(results, key=results.get)
print(f"fastest: {fastest}; float32 'highest' takes {results['float32, highest'] / results['autocast-like']:.1f} x "
      f"the autocast-like step, all bfloat16 {results['all bfloat16'] / results['autocast-like']:.2f} x")
