"""A JAX call returns before its result is computed; block_until_ready waits for it."""
# The timings this program prints differ from run to run and from machine to machine.
import os
import platform
import statistics
import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def heavy(x):
    for _ in range(3):
        x = jnp.tanh(x @ x)
    return x


x = jax.random.normal(jax.random.key(0), (600, 600)) / 25
heavy(x).block_until_ready()  # compile outside the measurement

dispatch, complete = [], []
for _ in range(5):
    start = time.perf_counter()
    y = heavy(x)  # returns a jax.Array whose value may not exist yet
    dispatch.append(time.perf_counter() - start)
    y.block_until_ready()  # finish it outside the clock

    start = time.perf_counter()
    heavy(x).block_until_ready()
    complete.append(time.perf_counter() - start)

print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, JAX backend: {jax.default_backend()}")
print(f"call only (dispatch), median:   {statistics.median(dispatch) * 1e3:8.3f} ms")
print(f"call + block_until_ready, median: {statistics.median(complete) * 1e3:6.3f} ms")
ratio = statistics.median(complete) / statistics.median(dispatch)
print(f"call + block_until_ready / call only: {ratio:.0f} (asserted > 5 on the CPU backend)")
if jax.default_backend() == "cpu":  # the products take far longer than a dispatch on a CPU, not on a GPU
    assert ratio > 5  # unblocked timing sees only dispatch

# Anything that needs the values waits too: np.asarray, float(), print.
# For a pytree of arrays, jax.block_until_ready waits for every leaf.
pair = jax.block_until_ready((heavy(x), heavy(x + 1)))
assert np.asarray(pair[0]).shape == (600, 600)
