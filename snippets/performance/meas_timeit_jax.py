"""Time a jitted function with the standard library: warm up, block on the result, repeat, keep min and median."""
# The timings this program prints differ from run to run and from machine to machine.
import os
import platform
import statistics
import time
import timeit

import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    return jnp.tanh(x @ x)


x = jax.random.normal(jax.random.key(0), (300, 300))

start = time.perf_counter()
step(x).block_until_ready()  # warm-up: trace + compile + run, measured on its own
first = time.perf_counter() - start

# Block inside the timed statement, or the clock stops before the work is done.
timer = timeit.Timer(lambda: step(x).block_until_ready())
repeat, number = 7, 10  # 7 repeats of 10 calls each
per_call = [total / number for total in timer.repeat(repeat=repeat, number=number)]
best, typical = min(per_call), statistics.median(per_call)

print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, JAX backend: {jax.default_backend()}")
print(f"first call (trace + compile + run): {first * 1e3:8.3f} ms")
print(f"later calls, {repeat} repeats of {number}:  min {best * 1e3:.3f} ms, median {typical * 1e3:.3f} ms per call")
assert first > 5 * typical  # the warm-up call pays for compilation: keep it out of the statistics
