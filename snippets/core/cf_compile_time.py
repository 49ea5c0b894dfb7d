"""Compile time under jit: a Python-unrolled RNN loop grows with the sequence length, lax.scan does not."""
# The timings this program prints differ from run to run and from machine to machine.
import os
import platform
import time

import jax
import jax.numpy as jnp
import matplotlib.pyplot as plt

N_IN, N_HIDDEN = 8, 16
params = {"W_xh": jnp.zeros((N_HIDDEN, N_IN)), "W_hh": jnp.zeros((N_HIDDEN, N_HIDDEN)), "b": jnp.zeros(N_HIDDEN)}


def cell(params, h, x):
    return jnp.tanh(params["W_hh"] @ h + params["W_xh"] @ x + params["b"])


def make(kind):
    """A new function object on every call, so that no trace or compile cache is reused."""
    def unrolled(params, xs):
        h = jnp.zeros(N_HIDDEN)
        for t in range(xs.shape[0]):  # the length is static: one copy of the cell per step
            h = cell(params, h, xs[t])
        return h

    def scanned(params, xs):
        h, _ = jax.lax.scan(lambda h, x: (cell(params, h, x), None), jnp.zeros(N_HIDDEN), xs)
        return h
    return unrolled if kind == "unrolled" else scanned


def compile_seconds(kind, length, repeats):
    xs = jax.ShapeDtypeStruct((length, N_IN), jnp.float32)  # only the shape is needed
    best = float("inf")
    for _ in range(repeats):  # keep the fastest try: the one least disturbed by other work
        start = time.perf_counter()
        jax.jit(make(kind)).lower(params, xs).compile()  # trace + lower + XLA compile
        best = min(best, time.perf_counter() - start)
    return best


compile_seconds("unrolled", 2, 1), compile_seconds("scan", 2, 1)  # warm-up: one-time start-up costs
lengths = [10, 25, 50, 100, 200]
unrolled = [compile_seconds("unrolled", n, repeats=1) for n in lengths]
scanned = [compile_seconds("scan", n, repeats=3) for n in lengths]  # short times: best of 3

print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, JAX backend: {jax.default_backend()}")
print(f"{'length':>6} {'unrolled (s)':>13} {'scan (s)':>9} {'ratio':>6}")
for n, u, s in zip(lengths, unrolled, scanned):
    print(f"{n:>6} {u:>13.3f} {s:>9.3f} {u / s:>6.1f}")

# Robust relations only: the unrolled loop is several times slower to compile at the longest
# length, and its compile time grows far more than scan's from the shortest to the longest.
ratio = unrolled[-1] / scanned[-1]
growth = (unrolled[-1] / unrolled[0]) / (scanned[-1] / scanned[0])
print(f"length {lengths[-1]}: unrolled / scan = {ratio:.0f} (asserted > 5)")
print(f"growth from {lengths[0]} to {lengths[-1]}, unrolled / scan = {growth:.0f} (asserted > 3)")
assert ratio > 5 and growth > 3

plt.figure(figsize=(5, 3.2))
plt.plot(lengths, unrolled, "o-", label="Python loop, unrolled")
plt.plot(lengths, scanned, "s-", label="jax.lax.scan")
plt.xscale("log")
plt.yscale("log")
plt.xticks(lengths, [str(n) for n in lengths])
plt.xlabel("sequence length")
plt.ylabel("lower + compile (s)")
plt.title("jit compile time")  # the machine is named in the output above and atop the page
plt.legend()
plt.tight_layout()
plt.show()
