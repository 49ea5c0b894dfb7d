"""MFU of a small transformer's training step: compiled flops vs 6 x params x tokens, timed, at two widths."""
# The timings this program prints differ from run to run and from machine to machine.
import math
import statistics
import time

import jax
import jax.numpy as jnp

backend = jax.default_backend()
peak = None
if backend == "tpu":
    from jax.experimental.pallas import tpu as pltpu

    info = pltpu.get_tpu_info()
    peak = info.bf16_ops_per_second * info.num_cores  # FLOP/s of the chip
    # (d_model, heads): a width that is a multiple of 128 and one that is not
    widths, layers, seq, batch, vocab, steps = [(768, 12), (760, 10)], 6, 1024, 8, 8192, 10
else:
    widths, layers, seq, batch, vocab, steps = [(128, 4), (120, 4)], 2, 64, 4, 256, 5
# bfloat16 on an accelerator; float32 on a CPU, whose XLA backend has no fast bfloat16 matmul
compute = jnp.bfloat16 if backend in ("tpu", "gpu") else jnp.float32
unit, unit_name = (1e12, "TFLOP/s") if backend in ("tpu", "gpu") else (1e9, "GFLOP/s")
print(f"{jax.devices()[0].device_kind}: {layers} layers, seq {seq}, batch {batch}, vocab {vocab}, {compute.__name__} compute"
      + (f", peak {peak / 1e12:.0f} TFLOP/s, MXU {info.mxu_column_size} wide" if peak else "; JAX cannot tell this device's peak"))


def init(key, d):
    keys = iter(jax.random.split(key, 4 * layers + 1))
    dense = lambda shape: jax.random.normal(next(keys), shape) / math.sqrt(shape[0])
    blocks = [dict(qkv=dense((d, 3 * d)), out=dense((d, d)), up=dense((d, 4 * d)), down=dense((4 * d, d)),
                   ln1=jnp.ones(d), ln2=jnp.ones(d)) for _ in range(layers)]
    return dict(embed=dense((vocab, d)) * math.sqrt(vocab / d), blocks=blocks, ln=jnp.ones(d))  # std 1/sqrt(d)


def layer_norm(x, scale):
    x = x.astype(jnp.float32)
    return ((x - x.mean(-1, keepdims=True)) * jax.lax.rsqrt(x.var(-1, keepdims=True) + 1e-5) * scale).astype(compute)


def loss_fn(params, tokens, heads):
    p = jax.tree.map(lambda w: w.astype(compute), params)  # float32 parameters, computed in `compute`
    x = p["embed"][tokens[:, :-1]]
    b, t, d = x.shape
    causal = jnp.tril(jnp.ones((t, t), bool))
    for blk in p["blocks"]:  # a Python loop: every layer appears in the compiled program and in its flop count
        q, k, v = jnp.split(layer_norm(x, blk["ln1"]) @ blk["qkv"], 3, axis=-1)
        q, k, v = (y.reshape(b, t, heads, d // heads) for y in (q, k, v))
        scores = jnp.einsum("bqhd,bkhd->bhqk", q, k).astype(jnp.float32) / math.sqrt(d // heads)
        weights = jax.nn.softmax(jnp.where(causal, scores, -1e9), axis=-1).astype(compute)
        x = x + jnp.einsum("bhqk,bkhd->bqhd", weights, v).reshape(b, t, d) @ blk["out"]
        x = x + jax.nn.gelu(layer_norm(x, blk["ln2"]) @ blk["up"]) @ blk["down"]
    logits = (layer_norm(x, p["ln"]) @ p["embed"].T).astype(jnp.float32)  # tied head
    labels = tokens[:, 1:]
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), labels[..., None], axis=-1))


def sgd_step(params, tokens, heads):
    loss, grads = jax.value_and_grad(loss_fn)(params, tokens, heads)
    return jax.tree.map(lambda w, g: w - 0.5 * g, params, grads), loss


tokens = jax.random.randint(jax.random.key(1), (batch, seq + 1), 0, vocab)
mfus = {}
for d, heads in widths:
    params = init(jax.random.key(0), d)
    n_params = sum(w.size for w in jax.tree.leaves(params))
    step = jax.jit(sgd_step, static_argnums=2, donate_argnums=0).lower(params, tokens, heads).compile()
    analysis = step.cost_analysis()
    flops = (analysis[0] if isinstance(analysis, list) else analysis)["flops"]
    estimate = 6 * n_params * batch * seq  # 6 flops per parameter per token: forward 2, backward 4
    losses, times = [], []
    for i in range(steps + 2):  # the first 2 calls are warm-up
        start = time.perf_counter()
        params, loss = step(params, tokens)
        losses.append(float(loss))  # float() waits for the step to finish
        times.append(time.perf_counter() - start)
    seconds = statistics.median(times[2:])
    achieved = flops / seconds
    print(f"d_model {d} ({heads} heads): {n_params / 1e6:.2f} M params; cost_analysis {flops:.3e} flops, "
          f"6 x params x tokens {estimate:.3e} (ratio {flops / estimate:.2f})")
    print(f"  step {seconds * 1e3:.2f} ms, {achieved / unit:.2f} {unit_name}"
          + (f", MFU {achieved / peak:.1%} (with 6PT: {estimate / seconds / peak:.1%})" if peak else "")
          + f"; loss {losses[0]:.3f} -> {losses[-1]:.3f}")
    assert all(math.isfinite(x) for x in losses) and losses[-1] < losses[0]
    assert 0.5 < flops / estimate < 2  # the estimate leaves out attention scores, norms, softmax, the update
    mfus[d] = achieved / peak if peak else None

if peak:
    (d1, _), (d2, _) = widths
    print(f"MFU at d_model {d1}: {mfus[d1]:.1%}, at d_model {d2}: {mfus[d2]:.1%}")
    assert mfus[d1] > 0.15  # conservative: a first measurement, not a target
