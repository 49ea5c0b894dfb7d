"""jax.grad cannot differentiate through a pure_callback: JAX sees an opaque call."""
import jax
import jax.numpy as jnp
import numpy as np
import scipy.special


def log_gamma(x):
    out_type = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(lambda v: scipy.special.gammaln(np.asarray(v)), out_type, x)


x = jnp.array([0.5, 2.0, 4.5], dtype=jnp.float32)
print("forward works:", log_gamma(x))

try:
    jax.grad(lambda v: log_gamma(v).sum())(x)
except ValueError as err:
    message = str(err)
    print("grad:", type(err).__name__, "-", message.splitlines()[0])
    assert "Pure callbacks do not support JVP" in message
    assert "jax.custom_jvp" in message  # the message points to the fix
else:
    raise AssertionError("expected ValueError")
