"""A Pallas SiLU kernel made differentiable with jax.custom_vjp and a backward kernel."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl

BLOCK = 1024  # rank-1 blocks on a TPU: the full size, a multiple of 1024, or a power of 2 >= 128


def silu_fwd_kernel(x_ref, o_ref):
    x = x_ref[...]
    o_ref[...] = x * jax.nn.sigmoid(x)


def silu_bwd_kernel(x_ref, g_ref, dx_ref):
    x = x_ref[...]
    s = jax.nn.sigmoid(x)  # recomputed from x: the only residual is the input
    dx_ref[...] = g_ref[...] * (s + x * s * (1.0 - s))


def elementwise_call(kernel, x, n_inputs):
    spec = pl.BlockSpec((BLOCK,), lambda i: (i,))
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          grid=(x.shape[0] // BLOCK,), in_specs=[spec] * n_inputs,
                          out_specs=spec, interpret=True)


@jax.custom_vjp
def silu(x):
    return elementwise_call(silu_fwd_kernel, x, 1)(x)


def silu_fwd(x):
    return silu(x), x  # (output, residuals saved for the backward pass)


def silu_bwd(x, g):
    return (elementwise_call(silu_bwd_kernel, x, 2)(x, g),)  # one cotangent per input


silu.defvjp(silu_fwd, silu_bwd)

x = jnp.linspace(-4.0, 4.0, 2048)
loss = lambda f: (lambda x: jnp.sum(f(x) ** 2))
g_kernel = jax.jit(jax.grad(loss(silu)))(x)
g_ref = jax.grad(loss(jax.nn.silu))(x)  # the jnp reference, differentiated by JAX
print("forward max error:", float(jnp.abs(silu(x) - jax.nn.silu(x)).max()))
print("grad max error:   ", float(jnp.abs(g_kernel - g_ref).max()))
assert np.allclose(silu(x), jax.nn.silu(x), atol=1e-6)
assert np.allclose(g_kernel, g_ref, atol=1e-5)
n_calls = str(jax.make_jaxpr(jax.grad(loss(silu)))(x)).count("pallas_call[")
print("pallas_call primitives in the grad jaxpr:", n_calls)  # forward kernel + backward kernel
assert n_calls == 2
