"""Count traces and compilations: a new shape or dtype recompiles, new values do not."""
import io
import logging

import jax
import jax.numpy as jnp

traces = []  # a trace-time side effect: one entry each time jit runs the Python body


@jax.jit
def scale_and_sum(x):
    traces.append(f"{x.dtype}{list(x.shape)}")
    return jnp.sum(x * 2)


calls = [  # (description, argument), all created before logging starts
    ("float32[3]", jnp.array([1.0, 2.0, 3.0])),
    ("float32[3], new values", jnp.array([7.0, 8.0, 9.0])),
    ("float32[4], new shape", jnp.ones(4)),
    ("int32[3], new dtype", jnp.array([1, 2, 3])),
    ("float32[3] again", jnp.array([4.0, 5.0, 6.0])),
]

# jax.log_compiles() logs each compilation through `logging`; collect the lines in memory.
log = io.StringIO()
jax_logger = logging.getLogger("jax")
handler = logging.StreamHandler(log)
jax_logger.addHandler(handler)
saved_propagate, jax_logger.propagate = jax_logger.propagate, False  # keep stderr clean
compiled = []
try:
    with jax.log_compiles():
        for description, arg in calls:
            before = log.getvalue().count("Compiling jit(scale_and_sum)")
            scale_and_sum(arg)
            after = log.getvalue().count("Compiling jit(scale_and_sum)")
            compiled.append(after - before)
            print(f"{description:24} compiled: {'yes' if after > before else 'no (cached)'}")
finally:
    jax_logger.removeHandler(handler)
    jax_logger.propagate = saved_propagate

for line in log.getvalue().splitlines():
    if line.startswith("Compiling jit(scale_and_sum)"):
        print("log:", line.split(". Argument")[0])
print("traces:", traces)
print("compilations:", sum(compiled))
assert compiled == [1, 0, 1, 1, 0]  # shape or dtype changed -> compile; values changed -> cached
assert traces == ["float32[3]", "float32[4]", "int32[3]"]  # every compile was preceded by a trace
