"""jax.custom_vjp makes a pure_callback differentiable: the backward pass is another callback."""
import jax
import jax.numpy as jnp
import numpy as np
import scipy.special


def host(fn):
    """Wrap a SciPy ufunc as a pure_callback with the input's shape and dtype."""
    def call(x):
        out_type = jax.ShapeDtypeStruct(x.shape, x.dtype)
        return jax.pure_callback(lambda v: fn(np.asarray(v)).astype(v.dtype), out_type, x,
                                 vmap_method="expand_dims")  # elementwise: batches as is
    return call


@jax.custom_vjp
def log_gamma(x):
    return host(scipy.special.gammaln)(x)


def log_gamma_fwd(x):
    return log_gamma(x), x  # save x for the backward pass


def log_gamma_bwd(x, g):
    return (g * host(scipy.special.digamma)(x),)  # d/dx log Gamma(x) = digamma(x)


log_gamma.defvjp(log_gamma_fwd, log_gamma_bwd)

x = jnp.array([0.5, 2.0, 4.5], dtype=jnp.float32)
grad = jax.jit(jax.grad(lambda v: log_gamma(v).sum()))(x)
analytic = jax.scipy.special.digamma(x)
eps = 1e-3  # central differences in float64 NumPy, as an independent check
fd = (scipy.special.gammaln(np.float64(x) + eps) - scipy.special.gammaln(np.float64(x) - eps)) / (2 * eps)
print("grad via callbacks:", grad)
print("digamma (jax):     ", analytic)
print("finite differences:", fd.astype(np.float32))
# SciPy's digamma against JAX's: float32 rounding on the CPU; a TPU computes JAX's with its own approximations.
tol = 1e-5 if jax.default_backend() == "cpu" else 1e-4
gap = float(jnp.max(jnp.abs(grad / analytic - 1)))
print(f"max relative gap to jax digamma: {gap:.1e}, tolerance on {jax.default_backend()}: {tol:.0e}")
assert jnp.allclose(grad, analytic, rtol=tol)
assert np.allclose(grad, fd, rtol=1e-4)
per_example = jax.vmap(jax.grad(lambda v: log_gamma(v)))(x)  # also batches under vmap
assert jnp.allclose(per_example, analytic, rtol=tol)
