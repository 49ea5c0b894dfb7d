"""Implicit differentiation of a fixed point x = f(a, x) with custom_vjp and nondiff_argnums."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


def iterate(f, a, x0):  # plain solver: repeat x <- f(a, x) until it stops moving
    def cond(c):
        return jnp.abs(c[1] - c[0]) > 1e-6
    _, x = jax.lax.while_loop(cond, lambda c: (c[1], f(a, c[1])), (x0, f(a, x0)))
    return x


@partial(jax.custom_vjp, nondiff_argnums=(0,))  # f is a Python function, not an array
def fixed_point(f, a, x0):
    return iterate(f, a, x0)


def fixed_point_fwd(f, a, x0):
    x = fixed_point(f, a, x0)
    return x, (a, x)  # only the solution is kept, not the iterations


def fixed_point_bwd(f, res, g):  # nondiff arguments come first
    a, x = res
    _, vjp_a = jax.vjp(lambda a: f(a, x), a)
    _, vjp_x = jax.vjp(lambda x: f(a, x), x)
    # Implicit function theorem: w = g + w df/dx, solved by the same iteration.
    w = iterate(lambda g, w: g + vjp_x(w)[0], g, g)
    return vjp_a(w)[0], jnp.zeros_like(x)  # the answer does not depend on x0


fixed_point.defvjp(fixed_point_fwd, fixed_point_bwd)

f = lambda a, x: a * jnp.cos(x)
a, x0 = jnp.float32(0.7), jnp.float32(0.0)
x = fixed_point(f, a, x0)
implicit = jax.grad(fixed_point, argnums=1)(f, a, x0)
unrolled = jax.grad(lambda a: jax.lax.fori_loop(0, 100, lambda i, x: f(a, x), x0))(a)
fd = (fixed_point(f, a + 1e-3, x0) - fixed_point(f, a - 1e-3, x0)) / 2e-3
exact = np.cos(x) / (1 + 0.7 * np.sin(x))  # d/da of x = a cos x, solved for dx/da
print(f"x* = {x:.6f}; dx*/da: implicit {implicit:.6f}, unrolled {unrolled:.6f}, "
      f"finite differences {fd:.6f}, closed form {exact:.6f}")
assert abs(x - 0.7 * np.cos(x)) < 1e-5
assert np.allclose([implicit, unrolled], exact, atol=1e-5) and abs(fd - implicit) < 1e-3

error = None
try:  # without the custom rule, reverse mode cannot go through a while_loop
    jax.grad(iterate, argnums=1)(f, a, x0)
except ValueError as err:
    error = str(err)
print("plain solver:", error.splitlines()[0])
assert "Reverse-mode differentiation does not work for lax.while_loop" in error
