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


def quartiles_us(width, batch, rounds):  # per version: 25th percentile, median, 75th percentile
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
    return {name: [1e6 * q for q in statistics.quantiles(t, n=4)] for name, t in times.items()}


# The CPU needs milliseconds for a step of the 1024-wide MLP. A GPU or TPU needs microseconds, and
# both columns would time only Python and dispatch, so off the CPU the large MLP is much larger.
width, batch = (1024, 256) if jax.default_backend() == "cpu" else (4096, 8192)
small = quartiles_us(width=32, batch=32, rounds=100)
large = quartiles_us(width=width, batch=batch, rounds=50)
print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, backend: {jax.default_backend()}")
print(f"small MLP: 16-32-32-1, batch 32, 100 steps; large MLP: 16-{width}-{width}-1, batch {batch}, 50 steps")
print("each after one warm-up step; the parameters agree across versions (atol 1e-6)")
print("each cell: median [25th-75th percentile] of the single steps, in µs\n")
print(f"{'version':<16}{'small MLP':>22}{'large MLP':>28}")
for name in small:
    cells = [f"{q[1]:.0f} [{q[0]:.0f}-{q[2]:.0f}]" for q in (small[name], large[name])]
    print(f"{name:<16}{cells[0]:>22}{cells[1]:>28}")
ratios = {}
for label, t in [("small", small), ("large", large)]:
    ratios[label] = t["nnx.jit"][1] / t["jax.jit"][1]
    print(f"{label} MLP: median nnx.jit / median jax.jit = {ratios[label]:.2f}")
assert ratios["small"] > ratios["large"]  # the same Python work weighs more on a short step

names, pos = list(small), np.arange(len(small))
plt.figure(figsize=(5, 3.2))
for shift, t, label in [(-0.2, small, "small MLP"), (0.2, large, "large MLP")]:
    med = np.array([t[n][1] for n in names])
    spread = [med - [t[n][0] for n in names], [t[n][2] for n in names] - med]  # 25th to 75th percentile
    plt.bar(pos + shift, med, 0.4, yerr=spread, capsize=3, label=label)
plt.xticks(pos, names, rotation=15)
plt.yscale("log")
plt.ylim(top=3 * max(q[2] for q in large.values()))  # room for the legend
plt.ylabel("time per step (µs)")
plt.title("Same train step, four ways")
plt.legend(loc="upper center", ncol=2)
plt.tight_layout()
plt.show()
