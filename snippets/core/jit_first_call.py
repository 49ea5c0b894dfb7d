"""jax.jit traces and compiles on the first call, then reuses the compiled program."""
# The timings this program prints differ from run to run and from machine to machine.
import os
import platform
import time

import jax
import jax.numpy as jnp


def f(x):
    for _ in range(10):  # a Python loop: unrolled into one program at trace time
        x = jnp.sin(x) * 1.01 + 0.1
    return x


fast_f = jax.jit(f)
x = jnp.linspace(0.0, 1.0, 1000)

start = time.perf_counter()
y = fast_f(x).block_until_ready()  # JAX dispatches asynchronously: wait for the result
first = time.perf_counter() - start
assert jnp.allclose(y, f(x), atol=1e-6)  # the same numbers as the eager function


inputs = [x + i for i in range(21)]  # new values, same shape and dtype


def median_seconds(fn):
    times = []
    for value in inputs:
        start = time.perf_counter()
        fn(value).block_until_ready()
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


jit_call = median_seconds(fast_f)
eager_call = median_seconds(f)
print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, backend {jax.default_backend()}")
print(f"first jit call (trace + compile + run): {first * 1e3:8.3f} ms")
print(f"later jit calls, median:                {jit_call * 1e3:8.3f} ms")
print(f"eager calls, median:                    {eager_call * 1e3:8.3f} ms")
assert first > 10 * jit_call  # compiling costs far more than running the cached program
assert jit_call < eager_call  # one compiled program beats 30 small dispatched operations
