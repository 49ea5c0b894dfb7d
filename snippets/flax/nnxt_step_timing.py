"""Per-step time of the same NNX train step under nnx.jit, tree mode, cached_partial and jax.jit."""
# The timings this program prints differ from run to run and from machine to machine.
import functools
import os
import platform
import statistics
import time
import jax
import jax.numpy as jnp
import matplotlib.pyplot as plt
import numpy as np
import optax
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, width, rngs):
        self.l1 = nnx.Linear(16, width, rngs=rngs)
        self.l2 = nnx.Linear(width, width, rngs=rngs)
        self.l3 = nnx.Linear(width, 1, rngs=rngs)

    def __call__(self, x):
        return self.l3(jax.nn.relu(self.l2(jax.nn.relu(self.l1(x)))))


def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    optimizer.update(model, grads)
    return loss


def split_step(model, optimizer):  # jax.jit on the state: split once, merge inside the trace
    graphdef, state = nnx.split((model, optimizer))
    box = {"state": state}

    @jax.jit
    def jax_step(state, x, y):
        model, optimizer = nnx.merge(graphdef, state)
        return train_step(model, optimizer, x, y), nnx.state((model, optimizer))

    def step(x, y):
        loss, box["state"] = jax_step(box["state"], x, y)
        return loss

    step.write_back = lambda: nnx.update((model, optimizer), box["state"])
    return step


def median_us(width, batch, rounds):
    x = jax.random.normal(jax.random.key(1), (batch, 16))
    y = jax.random.normal(jax.random.key(2), (batch, 1))
    models = [MLP(width, nnx.Rngs(0)) for _ in range(4)]  # the same initial weights, four times
    opts = [nnx.Optimizer(m, optax.adam(1e-3), wrt=nnx.Param) for m in models]
    jit, tree = nnx.jit(train_step), nnx.jit(train_step, graph=False)
    steps = {"nnx.jit": functools.partial(jit, models[0], opts[0]),
             "graph=False": functools.partial(tree, models[1], opts[1]),
             "cached_partial": nnx.cached_partial(jit, models[2], opts[2]),
             "jax.jit": split_step(models[3], opts[3])}
    times = {name: [] for name in steps}
    for step in steps.values():
        step(x, y).block_until_ready()  # warm-up: tracing and compilation happen here
    for _ in range(rounds):  # interleaved, so that a busy moment hits all four alike
        for name, step in steps.items():
            start = time.perf_counter()
            step(x, y).block_until_ready()
            times[name].append(time.perf_counter() - start)
    steps["jax.jit"].write_back()
    kernels = [np.asarray(m.l2.kernel[...]) for m in models]
    assert all(np.allclose(k, kernels[0], atol=1e-6) for k in kernels)  # same steps, same weights
    return {name: 1e6 * statistics.median(t) for name, t in times.items()}


small = median_us(width=32, batch=32, rounds=100)
large = median_us(width=1024, batch=256, rounds=20)
print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, backend: {jax.default_backend()}")
print("small MLP: 16-32-32-1, batch 32, median of 100 steps; large MLP: 16-1024-1024-1, batch 256, "
      "median of 20 steps")
print("each after one warm-up step; the parameters agree across versions (atol 1e-6)\n")
print(f"{'version':<16}{'small MLP (µs)':>16}{'large MLP (µs)':>16}")
for name in small:
    print(f"{name:<16}{small[name]:>16.0f}{large[name]:>16.0f}")
ratios = {}
for label, t in [("small", small), ("large", large)]:
    ratios[label] = t["nnx.jit"] / t["jax.jit"]
    extra = t["nnx.jit"] - t["jax.jit"]
    print(f"{label} MLP: nnx.jit minus jax.jit = {extra:+.0f} µs per step, "
          f"nnx.jit / jax.jit = {ratios[label]:.2f}")
assert ratios["small"] > ratios["large"]  # the same Python work weighs more on a short step

names, pos = list(small), np.arange(len(small))
plt.figure(figsize=(5, 3.2))
plt.bar(pos - 0.2, [small[n] for n in names], 0.4, label="small MLP")
plt.bar(pos + 0.2, [large[n] for n in names], 0.4, label="large MLP")
plt.xticks(pos, names, rotation=15)
plt.yscale("log")
plt.ylim(top=3 * max(large.values()))  # room for the legend
plt.ylabel("time per step (µs)")
plt.title("Same train step, four ways")
plt.legend(loc="upper center", ncol=2)
plt.tight_layout()
plt.show()
