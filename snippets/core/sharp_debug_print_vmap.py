"""jax.debug.print inside jit and vmap prints every example's value; print sees one tracer."""
import contextlib
import io

import jax
import jax.numpy as jnp


def scale(x):
    print("print sees:", type(x).__name__, x.shape)  # trace time: once, a tracer
    jax.debug.print("debug.print sees {}", x)  # run time: the real values
    return 2.0 * x


batched = jax.jit(jax.vmap(scale))
captured = io.StringIO()
with contextlib.redirect_stdout(captured):
    for _ in range(2):  # two calls, one trace
        batched(jnp.arange(3.0))
    jax.effects_barrier()  # wait for the debug prints
lines = captured.getvalue().splitlines()
print("\n".join(lines))

# The function body sees ONE example (shape ()), not the batch.
assert sum(line.startswith("print sees") for line in lines) == 1
assert "()" in lines[0]
# debug.print ran for each of the 3 examples on each of the 2 calls.
debug_lines = [line for line in lines if line.startswith("debug.print")]
expected = [f"debug.print sees {v}" for v in ("0.0", "1.0", "2.0")] * 2
assert sorted(debug_lines) == sorted(expected)  # no order is promised: compare sorted
