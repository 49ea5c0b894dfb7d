"""jax.debug.print inside jit prints run-time values; ordered=True keeps program order."""
import contextlib
import io

import jax
import jax.numpy as jnp

show = jax.debug.print(ordered=True)  # options in a first call, format in the second


@jax.jit
def softmax(x):
    print("print sees:", x)  # trace time only: a tracer, once
    show("input  {}", x)
    e = jnp.exp(x - x.max())
    show("exp    {e}", e=e)  # keyword fields work like str.format
    return e / e.sum()


captured = io.StringIO()
with contextlib.redirect_stdout(captured):
    softmax(jnp.array([0.0, 1.0]))
    softmax(jnp.array([2.0, 2.0]))  # same shape: no new trace
    jax.effects_barrier()  # wait until every print of the compiled program ran
lines = captured.getvalue().splitlines()
print("\n".join(lines))

assert sum(line.startswith("print sees") for line in lines) == 1
assert "Tracer" in lines[0]
# Ordered prints come out in program order, call after call.
tags = [line.split()[0] for line in lines[1:]]
assert tags == ["input", "exp", "input", "exp"], tags
assert lines[2].startswith("exp    [0.36") and lines[4] == "exp    [1. 1.]"
