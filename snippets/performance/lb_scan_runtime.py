"""Run and compile time of an RNN loop: Python-unrolled, lax.scan, lax.scan with unroll=5; on the CPU, why."""
# The timings this program prints differ from run to run and from machine to machine.
import collections
import os
import platform
import re
import statistics
import time

import jax
import jax.numpy as jnp
import matplotlib.pyplot as plt

N_IN, N_HIDDEN, UNROLL = 8, 16, 5
k1, k2, k3 = jax.random.split(jax.random.key(0), 3)
params = {"W_xh": jax.random.normal(k1, (N_HIDDEN, N_IN)) / 3,
          "W_hh": jax.random.normal(k2, (N_HIDDEN, N_HIDDEN)) / 4, "b": jnp.zeros(N_HIDDEN)}


def cell(params, h, x):
    return jnp.tanh(params["W_hh"] @ h + params["W_xh"] @ x + params["b"])


def python_loop(params, xs):
    h = jnp.zeros(N_HIDDEN)
    for t in range(xs.shape[0]):  # static length: one copy of the cell per step
        h = cell(params, h, xs[t])
    return h


def scan(unroll):
    def f(params, xs):
        step = lambda h, x: (cell(params, h, x), None)
        return jax.lax.scan(step, jnp.zeros(N_HIDDEN), xs, unroll=unroll)[0]
    return f


def call_times(compiled, xs, rounds=200):
    """Every call's time in seconds, per program; interleaved, so a busy moment hits all alike."""
    times = {name: [] for name in compiled}
    for _ in range(rounds):
        for name, c in compiled.items():
            start = time.perf_counter()
            c(params, xs).block_until_ready()
            times[name].append(time.perf_counter() - start)
    return times


ways = {"Python loop": python_loop, "lax.scan": scan(1), f"lax.scan, unroll={UNROLL}": scan(UNROLL)}
for f in ways.values():  # warm-up: one-time start-up costs are not the loop's
    jax.jit(f).lower(params, jnp.zeros((2, N_IN))).compile()  # a length not in the table
lengths = [5, 10, 20, 40]
compile_s = {name: [] for name in ways}
run_us = {name: [] for name in ways}
for n in lengths:
    xs = jax.random.normal(k3, (n, N_IN))
    compiled = {}
    for name, f in ways.items():
        start = time.perf_counter()
        compiled[name] = jax.jit(f).lower(params, xs).compile()  # trace + lower + compile
        compile_s[name].append(time.perf_counter() - start)
    outs = {name: c(params, xs) for name, c in compiled.items()}  # also the warm-up call
    assert all(jnp.allclose(o, outs["lax.scan"], atol=1e-5) for o in outs.values())  # same RNN
    times = call_times(compiled, xs)
    for name in ways:
        run_us[name].append(1e6 * min(times[name]))
median_us = {name: 1e6 * statistics.median(t) for name, t in times.items()}  # the longest length

print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, JAX backend: {jax.default_backend()}")
print("compile: one lower + compile; run: fastest of 200 calls of the compiled program")
print(f"{'length':>6} | {'compile (s):':<12}" + "".join(f"{w:>20}" for w in ways))
for i, n in enumerate(lengths):
    print(f"{n:>6} | {'':<12}" + "".join(f"{compile_s[w][i]:>20.3f}" for w in ways))
print(f"{'length':>6} | {'run (µs):':<12}" + "".join(f"{w:>20}" for w in ways))
for i, n in enumerate(lengths):
    print(f"{n:>6} | {'':<12}" + "".join(f"{run_us[w][i]:>20.1f}" for w in ways))
print(f"{lengths[-1]:>6} | {'median (µs):':<12}" + "".join(f"{median_us[w]:>20.1f}" for w in ways))

# Relations at the longest length, with wide margins. On every backend the partly unrolled scan
# compiles far faster than the Python loop. On the CPU, unrolling bought no run time; on a GPU each
# loop iteration costs kernel launches, and the unrolled programs may well run faster.
py, sc, mid = ways
compile_ratio = compile_s[py][-1] / compile_s[mid][-1]
print(f"length {lengths[-1]}: Python loop compile / {mid} compile = {compile_ratio:.1f} (asserted > 2)")
print(f"length {lengths[-1]}: run time of lax.scan / Python loop = {run_us[sc][-1] / run_us[py][-1]:.2f} "
      f"(asserted < 1 on the CPU), lax.scan / {mid} = {run_us[sc][-1] / run_us[mid][-1]:.2f} "
      f"(asserted < 1.1 on the CPU)")
assert compile_ratio > 2
on_cpu = jax.default_backend() == "cpu"
if on_cpu:
    assert run_us[sc][-1] < run_us[py][-1]  # the scan ran faster than the unrolled loop
    assert run_us[sc][-1] < 1.1 * run_us[mid][-1]  # unroll=5 was not even 10 % faster than the scan

if on_cpu:  # how XLA:CPU runs these programs: its compiled text and its schedules (CPU options)
    text = {name: c.as_text() for name, c in compiled.items()}
    entry = text[py][text[py].index("\nENTRY"):]
    ops = collections.Counter(op for op in re.findall(r"= \S+ ([a-z][\w-]*)\(", entry) if op != "parameter")
    one_kernel = {name: 'xla_cpu_small_call="true"' in t for name, t in text.items()}
    print(f"length {lengths[-1]}, operations in the Python loop's compiled entry computation: {dict(ops)}")
    print("whole loop compiled as one kernel (xla_cpu_small_call):", one_kernel)
    assert ops["dot"] == 2 * lengths[-1] and ops["fusion"] == 2 * lengths[-1] + 1
    assert one_kernel == {py: False, sc: True, mid: True}

    by_type = {kind: jax.jit(python_loop, compiler_options={"xla_cpu_scheduler_type": f"CPU_SCHEDULER_TYPE_{kind}"})
               .lower(params, xs).compile() for kind in ("CONCURRENCY_OPTIMIZED", "MEMORY_OPTIMIZED")}
    concurrency = by_type["CONCURRENCY_OPTIMIZED"].as_text()
    assert concurrency[concurrency.index("\nENTRY"):] == entry  # the default chose this order here
    schedules = {"default schedule": compiled[py], "memory-optimized": by_type["MEMORY_OPTIMIZED"], sc: compiled[sc]}
    times = call_times(schedules, xs)
    best = {name: 1e6 * min(t) for name, t in times.items()}
    print(f"length {lengths[-1]}, fastest / median of 200 calls (µs): "
          + ", ".join(f"{name} {best[name]:.1f} / {1e6 * statistics.median(t):.1f}" for name, t in times.items()))
    print("Python loop: memory-optimized / default schedule = "
          f"{best['memory-optimized'] / best['default schedule']:.2f} (asserted < 1 on the CPU)")
    assert best["memory-optimized"] < best["default schedule"] and best[sc] < best["memory-optimized"]

fig, (left, right) = plt.subplots(1, 2, figsize=(7.5, 3.2))
for name, marker in zip(ways, "osd"):
    left.plot(lengths, compile_s[name], marker + "-", label=name)
    right.plot(lengths, run_us[name], marker + "-", label=name)
left.set(xlabel="sequence length", ylabel="lower + compile (s)", title="Compile time", yscale="log")
right.set(xlabel="sequence length", ylabel="one call (µs)", title="Run time", yscale="log")
right.legend()
fig.tight_layout()
plt.show()
