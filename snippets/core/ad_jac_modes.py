"""jacfwd work grows with the number of inputs, jacrev with outputs: XLA's FLOP counts show it."""
import os
import platform

import jax
import jax.numpy as jnp

A = jax.random.normal(jax.random.key(0), (4, 1000)) / 30


def wide(x):  # 1000 inputs -> 4 outputs: a wide (4, 1000) Jacobian
    return jnp.tanh(A @ x)


def tall(x):  # 4 inputs -> 1000 outputs: a tall (1000, 4) Jacobian
    return jnp.tanh(A.T @ x)


def flops(jac, f, x):  # the compiler's estimate for the compiled program; nothing is timed
    return jax.jit(jac(f)).lower(x).compile().cost_analysis()["flops"]


print(f"backend: {jax.default_backend()}, {platform.machine()}, {os.cpu_count()} CPU cores")
cost = {}
for name, f, x in [("wide", wide, jnp.ones(1000)), ("tall", tall, jnp.ones(4))]:
    cost[name] = {jac.__name__: flops(jac, f, x) for jac in (jax.jacfwd, jax.jacrev)}
    print(f"{name}: Jacobian {jax.jacrev(f)(x).shape}, estimated FLOPs "
          f"jacfwd {cost[name]['jacfwd']:,.0f}  jacrev {cost[name]['jacrev']:,.0f}")
# Margins far below the 1000/4 ratio of the shapes.
assert cost["wide"]["jacfwd"] > 10 * cost["wide"]["jacrev"]
assert cost["tall"]["jacrev"] > 10 * cost["tall"]["jacfwd"]
