"""jax.debug_nans on a NaN gradient: the jitted result is re-run without jit to find the op."""
import contextlib
import io
import traceback

import jax
import jax.numpy as jnp


def f(x):
    return jnp.sum(jnp.where(x > 0, jnp.sqrt(x), 0.0))  # sqrt(-1) is NaN, then masked


x = jnp.array([4.0, -1.0])
grad_f = jax.jit(jax.grad(f))
print("value:", f(x), " gradient:", grad_f(x))  # the value is fine, the gradient is not

captured = io.StringIO()
with jax.debug_nans(True), contextlib.redirect_stdout(captured):
    try:
        grad_f(x)
    except FloatingPointError as exc:
        caught = exc
    else:
        raise AssertionError("debug_nans did not raise")
print(captured.getvalue().strip())
print("FloatingPointError:", caught)
user_line = next(fr.line for fr in traceback.extract_tb(caught.__traceback__) if fr.name == "f")
print("raised from:", user_line)

# Same numbers as the PyTorch tab: value 2, gradient [0.25, nan].
assert f(x) == 2.0 and grad_f(x)[0] == 0.25 and jnp.isnan(grad_f(x)[1])
assert captured.getvalue().count("Calling the de-optimized version.") == 2  # grad_f, then jnp.sqrt
assert str(caught) == "invalid value (nan) encountered in sqrt"  # forward sqrt, not backward
assert "jnp.sqrt(x)" in user_line
assert not jax.config.jax_debug_nans
