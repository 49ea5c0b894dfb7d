"""Batch size against examples per second and achieved FLOP/s for one MLP train step."""
# The timings this program prints differ from run to run and from machine to machine.
import os
import platform
import time

import jax
import jax.numpy as jnp
import matplotlib.pyplot as plt

D, H, C = 32, 128, 10  # a 32-128-128-10 MLP
k1, k2, k3, kx, ky = jax.random.split(jax.random.key(0), 5)
params = {"w1": jax.random.normal(k1, (D, H)) / D**0.5, "b1": jnp.zeros(H),
          "w2": jax.random.normal(k2, (H, H)) / H**0.5, "b2": jnp.zeros(H),
          "w3": jax.random.normal(k3, (H, C)) / H**0.5, "b3": jnp.zeros(C)}


def loss_fn(p, x, y):
    h = jax.nn.relu(x @ p["w1"] + p["b1"])
    h = jax.nn.relu(h @ p["w2"] + p["b2"])
    logp = jax.nn.log_softmax(h @ p["w3"] + p["b3"])
    return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))


def train_step(p, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(p, x, y)
    return jax.tree.map(lambda w, g: w - 0.01 * g, p, grads), loss


# Matrix products by hand, per example: forward 2*(D*H + H*H + H*C), the same again for the
# weight gradients, and the input gradients of layers 2 and 3 (layer 1 needs none).
by_hand = 2 * (D * H + H * H + H * C) * 2 + 2 * (H * H + H * C)
batches = [1, 8, 64, 512, 4096]
flops, steps, data = [], [], []
for b in batches:
    x, y = jax.random.normal(kx, (b, D)), jax.random.randint(ky, (b,), 0, C)
    step = jax.jit(train_step).lower(params, x, y).compile()
    flops.append(step.cost_analysis()["flops"])  # XLA's estimate for one call
    jax.block_until_ready(step(params, x, y))  # warm-up call
    steps.append(step)
    data.append((x, y))

# Five rounds go through all batch sizes in turn, so a burst of other work slows each size alike.
seconds = [float("inf")] * len(batches)
for _ in range(5):
    for i, (step, (x, y)) in enumerate(zip(steps, data)):
        for _ in range(20):
            start = time.perf_counter()
            jax.block_until_ready(step(params, x, y))
            seconds[i] = min(seconds[i], time.perf_counter() - start)

examples_s = [b / s for b, s in zip(batches, seconds)]
gflop_s = [f / s / 1e9 for f, s in zip(flops, seconds)]
print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, JAX backend: {jax.default_backend()}")
print(f"hand count of matrix-product FLOPs per example: {by_hand}; times: fastest of 100 steps, in 5 interleaved rounds")
print(f"{'batch':>6}{'FLOPs/step (XLA)':>18}{'per example':>13}{'step (µs)':>11}{'examples/s':>12}{'GFLOP/s':>9}")
for b, f, s, e, g in zip(batches, flops, seconds, examples_s, gflop_s):
    print(f"{b:>6}{f:>18.0f}{f / b:>13.0f}{s * 1e6:>11.1f}{e:>12.0f}{g:>9.2f}")

per_example = flops[-1] / batches[-1]  # the weight update is a larger share at batch 1
gains = [e2 / e1 for e1, e2 in zip(examples_s, examples_s[1:])]
print(f"XLA / hand count at batch {batches[-1]}: {per_example / by_hand:.3f} (asserted 0.9 to 1.2)")
print(f"examples/s, batch {batches[-1]} / batch 1: {examples_s[-1] / examples_s[0]:.1f} (asserted > 5), "
      f"batch 64 / batch 1: {examples_s[2] / examples_s[0]:.1f} (asserted > 2)")
print("throughput gain of each 8x step:", " ".join(f"{g:.1f}" for g in gains),
      "(the last asserted below 6 on the CPU)")
assert 0.9 < per_example / by_hand < 1.2 and flops[0] > per_example
assert examples_s[-1] > 5 * examples_s[0] and examples_s[2] > 2 * examples_s[0]
if jax.default_backend() == "cpu":  # the matrix products dominate at large batches: the curve flattens
    assert gains[-1] < 6  # a GPU still has launch overhead to spread at batch 4096: it may gain nearly 8

fig, (left, right) = plt.subplots(1, 2, figsize=(7.5, 3.2))
left.plot(batches, examples_s, "o-")
left.set(xscale="log", yscale="log", xlabel="batch size", ylabel="examples per second",
         title="Throughput")
right.plot(batches, gflop_s, "s-", color="tab:orange")
right.set(xscale="log", xlabel="batch size", ylabel="GFLOP/s (XLA count / time)",
          title="Achieved FLOP rate")
fig.tight_layout()
plt.show()
