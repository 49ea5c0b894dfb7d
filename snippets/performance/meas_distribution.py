"""Time 60 calls one by one: the first call compiles, the rest scatter around a floor."""
# The timings this program prints differ from run to run and from machine to machine.
import os
import platform
import statistics
import time

import jax
import jax.numpy as jnp
import matplotlib.pyplot as plt


@jax.jit
def f(x):
    for _ in range(30):
        x = jnp.sin(x) * 1.01 + 0.1
    return x


x = jnp.linspace(0.0, 1.0, 10_000)
times_ms = []
for _ in range(61):  # call 1 compiles; calls 2 to 61 reuse the program
    start = time.perf_counter()
    f(x).block_until_ready()
    times_ms.append((time.perf_counter() - start) * 1e3)
first, later = times_ms[0], times_ms[1:]
best, median, mean = min(later), statistics.median(later), statistics.mean(later)

print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, JAX backend: {jax.default_backend()}")
print(f"first call: {first:.3f} ms")
print(f"calls 2-61: min {best:.3f}  median {median:.3f}  mean {mean:.3f}  max {max(later):.3f} ms")
print(f"first / median: {first / median:.0f}   max / min of calls 2-61: {max(later) / best:.1f}")
assert first > 10 * median  # compilation dwarfs a typical call: report it apart

fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.2))
left.plot(range(2, 62), later, "o", markersize=3, label="later calls")
left.plot([1], [first], "s", color="tab:red", label="first call")
left.axhline(median, color="tab:green", label="median of later calls")
left.axhline(best, color="tab:gray", linestyle="--", label="minimum of later calls")
left.set_yscale("log")
left.set_xlabel("call number")
left.set_ylabel("time per call (ms)")
left.set_title("Each call, in order")
left.legend(fontsize="small")
right.hist(later, bins=20, color="tab:blue")
right.axvline(median, color="tab:green")
right.axvline(best, color="tab:gray", linestyle="--")
right.set_xlabel("time per call (ms)")
right.set_ylabel("number of calls")
right.set_title("Later calls")
fig.tight_layout()
plt.show()
