"""jax.grad through a bare pallas_call fails; forward-mode jax.jvp works."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl


def sin_kernel(x_ref, o_ref):
    o_ref[...] = jnp.sin(x_ref[...])


x = jnp.linspace(-2.0, 2.0, 16 * 128).reshape(16, 128)
spec = pl.BlockSpec((8, 128), lambda i: (i, 0))  # 8 rows per program: a TPU-legal block
sin_pallas = pl.pallas_call(sin_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                            grid=(2,), in_specs=[spec], out_specs=spec, interpret=True)

# Forward mode: pallas_call has a JVP rule (it differentiates the kernel body).
y, y_dot = jax.jvp(sin_pallas, (x,), (jnp.ones_like(x),))
print("jvp tangent == cos(x):", bool(np.allclose(y_dot, jnp.cos(x), atol=1e-6)))
assert np.allclose(y_dot, jnp.cos(x), atol=1e-6)

# Reverse mode: that JVP cannot be transposed, so jax.grad fails.
try:
    jax.grad(lambda x: sin_pallas(x).sum())(x)
    raise AssertionError("expected jax.grad to fail")
except ValueError as err:
    message = str(err)
print("jax.grad ->", "ValueError:", message)
assert message.startswith("Linearization failed to produce known values for all output primals")
