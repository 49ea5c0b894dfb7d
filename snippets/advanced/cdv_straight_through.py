"""A straight-through estimator with custom_vjp: sign() forward, a clipped identity backward."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.custom_vjp
def binarize(x):
    return jnp.where(x >= 0, 1.0, -1.0)


def binarize_fwd(x):
    return binarize(x), x  # keep the input to decide where the gradient passes


def binarize_bwd(x, g):
    return (g * (jnp.abs(x) <= 1),)  # pass g where |x| <= 1, zero elsewhere


binarize.defvjp(binarize_fwd, binarize_bwd)

x = jnp.array([-2.0, -0.5, 0.3, 0.9, 1.5])
plain = jax.grad(lambda x: jnp.sum(jnp.where(x >= 0, 1.0, -1.0)))(x)
ste = jax.grad(lambda x: jnp.sum(binarize(x)))(x)
print("forward:         ", binarize(x))
print("plain gradient:  ", plain)
print("STE gradient:    ", ste)
assert np.array_equal(binarize(x), np.sign(np.asarray(x)))  # no zeros in x, so sign() agrees
assert np.array_equal(plain, np.zeros(5))  # a step function has no gradient
assert np.array_equal(ste, (np.abs(np.asarray(x)) <= 1).astype(np.float32))
