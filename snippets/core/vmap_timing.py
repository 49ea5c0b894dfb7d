"""Timing a Python loop, manual batching and jax.vmap, each with and without jax.jit, on one function."""
# The timings this program prints differ from run to run and from machine to machine.
import os
import platform
import statistics
import time

import jax
import jax.numpy as jnp


def predict(params, x):  # written for ONE example: x has shape (16,)
    h = jnp.tanh(x @ params["w1"] + params["b1"])
    return h @ params["w2"] + params["b2"]


def predict_batch(params, xs):  # the same model rewritten by hand for xs of shape (n, 16)
    h = jnp.tanh(xs @ params["w1"] + params["b1"][None, :])
    return h @ params["w2"] + params["b2"][None, :]


k1, k2, k3 = jax.random.split(jax.random.key(0), 3)
params = {"w1": jax.random.normal(k1, (16, 32)) / 4, "b1": jnp.zeros(32),
          "w2": jax.random.normal(k2, (32, 4)) / 6, "b2": jnp.zeros(4)}
xs = jax.random.normal(k3, (256, 16))

ways = {
    "Python loop": lambda p, xs: jnp.stack([predict(p, x) for x in xs]),
    "manual batching": predict_batch,
    "jax.vmap": jax.vmap(predict, in_axes=(None, 0)),
    "jax.jit(manual)": jax.jit(predict_batch),  # like with like: both batched ways jitted too
    "jax.jit(jax.vmap)": jax.jit(jax.vmap(predict, in_axes=(None, 0))),
}


def median_seconds(fn, repeats=7):
    fn(params, xs).block_until_ready()  # warm-up: tracing and compilation happen here
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn(params, xs).block_until_ready()  # wait for the result, not just the dispatch
        times.append(time.perf_counter() - start)
    return statistics.median(times)


with jax.default_matmul_precision("float32"):  # no TF32 on GPUs: all five round alike
    results = {name: fn(params, xs) for name, fn in ways.items()}
    seconds = {name: median_seconds(fn) for name, fn in ways.items()}
print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, backend: {jax.default_backend()}")
print(f"{xs.shape[0]} examples; median of 7 timed calls after a warm-up call\n")
print(f"{'way':<20}{'median (ms)':>12}{'speed-up vs loop':>18}")
for name, sec in seconds.items():
    print(f"{name:<20}{sec * 1e3:>12.3f}{seconds['Python loop'] / sec:>17.1f}x")

for name, out in results.items():  # all five compute the same (256, 4) predictions
    assert out.shape == (256, 4), name
    assert jnp.allclose(out, results["Python loop"], atol=1e-5), name

# Why vmap is as good as batching by hand: it turns each per-example matrix-vector product into one
# matrix-matrix product over the batch, exactly as the hand-written version does.
def matmuls(fn):
    return sum(eqn.primitive.name == "dot_general" for eqn in jax.make_jaxpr(fn)(params, xs).eqns)


assert matmuls(jax.vmap(predict, in_axes=(None, 0))) == matmuls(predict_batch) == 2
# Wide margins: the measured loop ratio is far larger, and two runs of the same compiled work
# can differ by a few times on a busy 2-core machine, so "about as fast" is checked loosely.
margin, same = 10, 5
ratio = seconds["jax.jit(jax.vmap)"] / seconds["jax.jit(manual)"]
print(f"\njax.jit(jax.vmap) / jax.jit(manual) = {ratio:.2f}; both programs hold 2 matrix products")
assert seconds["jax.jit(jax.vmap)"] * margin < seconds["Python loop"]
assert 1 / same < ratio < same
print(f"checked: all five agree; jax.jit(jax.vmap) is more than {margin}x as fast as the loop, "
      f"and within {same}x of jax.jit(manual)")
