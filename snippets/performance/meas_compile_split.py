"""Split a first call into trace, lower, compile and run; a call with a new shape compiles again."""
# The timings this program prints differ from run to run and from machine to machine.
import os
import platform
import statistics
import time

import jax
import jax.numpy as jnp


def f(x):
    for _ in range(20):  # unrolled at trace time: a longer program to compile
        x = jnp.sin(x) * 1.01 + 0.1
    return x


def seconds(thunk):
    start = time.perf_counter()
    out = thunk()
    return out, time.perf_counter() - start


jitted = jax.jit(f)
x = jnp.linspace(0.0, 1.0, 10_000)
traced, t_trace = seconds(lambda: jitted.trace(x))  # run the Python function on tracers
lowered, t_lower = seconds(traced.lower)  # translate the jaxpr to StableHLO
compiled, t_compile = seconds(lowered.compile)  # XLA compiles for this backend
_, t_first = seconds(lambda: compiled(x).block_until_ready())
t_run = statistics.median(seconds(lambda: compiled(x).block_until_ready())[1] for _ in range(21))

jitted(x).block_until_ready()  # warm up the jitted function with the shape we time...
_, t_same = seconds(lambda: jitted(x).block_until_ready())
_, t_new = seconds(lambda: jitted(jnp.ones(10_001)).block_until_ready())  # ...not with another one

print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, JAX backend: {jax.default_backend()}")
for name, t in [("trace", t_trace), ("lower", t_lower), ("compile", t_compile), ("first run", t_first),
                ("later runs, median of 21", t_run), ("jitted, same shape as warm-up", t_same),
                ("jitted, new shape (compiles)", t_new)]:
    print(f"{name:30} {t * 1e3:9.3f} ms")
assert t_compile > 5 * t_run  # compiling costs far more than running the compiled program
assert t_new > 5 * t_run  # a warm-up with another shape does not warm up this one
