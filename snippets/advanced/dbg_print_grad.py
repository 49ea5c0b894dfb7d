"""Under jax.grad, jax.debug.print shows forward values only, never tangents or cotangents."""
import contextlib
import io

import jax
import jax.numpy as jnp


def loss(w):
    h = jnp.tanh(w * 2.0)
    jax.debug.print("h = {}", h)
    return jnp.sum(h**2)


w = jnp.array([0.0, 0.5])
captured = io.StringIO()
with contextlib.redirect_stdout(captured):
    g = jax.jit(jax.grad(loss))(w)
    jax.effects_barrier()
lines = captured.getvalue().splitlines()
print("\n".join(lines))
print("grad =", g)

# One line per call: the forward value of h, as a concrete array.
assert len(lines) == 1 and "Tracer" not in lines[0]
expected = jnp.tanh(w * 2.0)
assert lines[0] == f"h = {expected}"
# The gradient itself is unaffected by the print.
assert jnp.allclose(g, 4.0 * expected * (1.0 - expected**2))
