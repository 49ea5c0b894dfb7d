"""Under jit, Python side effects run once at trace time; jax.debug.print runs on every call."""
import contextlib
import io

import jax
import jax.numpy as jnp

seen = []  # hidden state that the function mutates
VALUES = (1.0, 2.0, 3.0)  # three calls with the same shape and dtype


@jax.jit
def double(x):
    print("print:", x)  # plain Python: runs only while jit traces
    seen.append(x)  # also only while tracing
    jax.debug.print("jax.debug.print: {}", x)  # compiled into the program
    return 2 * x


# Capture stdout so that we can count the lines, then show them.
captured = io.StringIO()
with contextlib.redirect_stdout(captured):
    for value in VALUES:
        double(jnp.float32(value))
    jax.effects_barrier()  # wait until every debug print has run
lines = captured.getvalue().splitlines()
print("\n".join(lines))
print("calls:", len(VALUES), "| list length:", len(seen))

# print and append happened once (first call), debug.print on all three calls.
assert sum(line.startswith("print:") for line in lines) == 1
assert sum(line.startswith("jax.debug.print:") for line in lines) == len(VALUES)
assert len(seen) == 1
# What was appended is a tracer: a placeholder with shape and dtype, no value.
assert isinstance(seen[0], jax.core.Tracer)
