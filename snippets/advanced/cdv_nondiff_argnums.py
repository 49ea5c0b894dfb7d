"""nondiff_argnums: for Python values such as functions or settings, never for traced arrays."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def power(n, x):  # n is a Python int: part of the program, like a static argument
    return x**n


def power_fwd(n, x):  # fwd takes the arguments in their usual order
    return power(n, x), x


def power_bwd(n, x, g):  # bwd gets the nondiff arguments first, then residuals, cotangent
    return (g * n * x ** (n - 1),)  # a cotangent for x only


power.defvjp(power_fwd, power_bwd)

x = jnp.float32(2.0)
print("d/dx x**3 at 2:", jax.grad(power, argnums=1)(3, x))
assert jax.grad(power, argnums=1)(3, x) == 12.0
assert jax.jit(jax.grad(power, argnums=1), static_argnums=0)(3, x) == 12.0  # n stays Python
assert jax.custom_vjp(power.fun, nondiff_argnames=("n",)).nondiff_argnums == (0,)

error = None
try:  # under jit without static_argnums, n arrives as a tracer
    jax.jit(jax.grad(power, argnums=1))(3, x)
except jax.errors.UnexpectedTracerError as err:
    error = str(err)
print("traced n:", error)
assert "Tracers cannot be passed as non-differentiable arguments to custom_vjp" in error
