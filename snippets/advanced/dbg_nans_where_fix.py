"""The fix that jax.debug_nans points to: keep the NaN out of sqrt, not only out of the result."""
import contextlib
import io

import jax
import jax.numpy as jnp


def f_fixed(x):
    safe = jnp.where(x > 0, x, 1.0)  # sqrt never sees a negative number
    return jnp.sum(jnp.where(x > 0, jnp.sqrt(safe), 0.0))


x = jnp.array([4.0, -1.0])
captured = io.StringIO()
with jax.debug_nans(True), contextlib.redirect_stdout(captured):
    value, grad = jax.jit(jax.value_and_grad(f_fixed))(x)  # no FloatingPointError now
print("value:", value, " gradient:", grad)

assert value == 2.0 and jnp.array_equal(grad, jnp.array([0.25, 0.0]))
assert captured.getvalue() == ""  # no NaN, so no de-optimized re-run
assert not jax.config.jax_debug_nans
