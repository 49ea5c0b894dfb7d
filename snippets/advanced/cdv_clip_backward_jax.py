"""custom_vjp clips the gradient inside the backward pass; the forward value is unchanged."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.custom_vjp
def clip_gradient(lo, hi, x):
    return x  # identity forward


def clip_gradient_fwd(lo, hi, x):
    return x, (lo, hi)


def clip_gradient_bwd(res, g):
    lo, hi = res
    return None, None, jnp.clip(g, lo, hi)  # None: no gradient for lo and hi


clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)

x = jnp.array([-2.0, -0.1, 0.1, 2.0])
plain = jax.grad(lambda x: jnp.sum(3 * x**2))(x)
clipped = jax.grad(lambda x, lo, hi: jnp.sum(3 * clip_gradient(lo, hi, x) ** 2))
print("plain gradient:  ", plain)
print("clipped gradient:", clipped(x, -1.0, 1.0))
assert np.allclose(plain, 6 * np.asarray(x))
assert np.allclose(clipped(x, -1.0, 1.0), np.clip(6 * np.asarray(x), -1.0, 1.0))
# lo and hi are ordinary arguments, so they may be traced: jit works with them as inputs.
assert np.allclose(jax.jit(clipped)(x, -0.5, 0.5), np.clip(6 * np.asarray(x), -0.5, 0.5))
