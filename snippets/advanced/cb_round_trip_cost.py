"""The price of a pure_callback round trip: the same jitted function with and without one."""
# The timings this program prints differ from run to run and from machine to machine.
import os
import platform
import time

import jax
import jax.numpy as jnp
import matplotlib.pyplot as plt
import numpy as np


@jax.jit
def plain(x):
    return jnp.sin(x) * 2.0 + 1.0


@jax.jit
def with_callback(x):
    y = jax.pure_callback(np.asarray, jax.ShapeDtypeStruct(x.shape, x.dtype), x)  # a no-op trip
    return jnp.sin(y) * 2.0 + 1.0


def best_of(fn, x, repeats=30):
    fn(x).block_until_ready()  # compile first; time only the compiled program
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn(x).block_until_ready()
        times.append(time.perf_counter() - start)
    return min(times)  # the run least disturbed by other work


sizes = [2**4, 2**10, 2**16, 2**20]
rows = []
for n in sizes:
    x = jnp.linspace(0.0, 1.0, n, dtype=jnp.float32)
    assert jnp.array_equal(plain(x), with_callback(x))  # same numbers, different cost
    rows.append((n, best_of(plain, x), best_of(with_callback, x)))

print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, JAX backend: {jax.default_backend()}")
print(f"{'elements':>9} {'plain (us)':>11} {'callback (us)':>14} {'extra (us)':>11}")
for n, p, c in rows:
    print(f"{n:>9} {p * 1e6:>11.1f} {c * 1e6:>14.1f} {(c - p) * 1e6:>11.1f}")

# Robust relation only: on a tiny array the round trip costs more than the work itself.
ratio = rows[0][2] / rows[0][1]
print(f"{sizes[0]} elements: callback / plain = {ratio:.0f} (asserted > 2)")
assert ratio > 2, "the callback should at least double a tiny call"

plt.figure(figsize=(5, 3.2))
plt.plot(sizes, [p * 1e6 for _, p, _ in rows], "o-", label="jitted, no callback")
plt.plot(sizes, [c * 1e6 for _, _, c in rows], "s-", label="jitted, one pure_callback")
plt.xscale("log")
plt.yscale("log")
plt.xlabel("array elements (float32)")
plt.ylabel("time per call (microseconds)")
plt.title("Cost of a pure_callback round trip")
plt.legend()
plt.tight_layout()
plt.show()
