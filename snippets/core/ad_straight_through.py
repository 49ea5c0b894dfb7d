"""Straight-through estimator: round in the forward pass, pretend it was the identity backward."""
import jax
import jax.numpy as jnp


def round_ste(x):
    zero = x - jax.lax.stop_gradient(x)  # exactly 0.0, but its gradient is 1
    return zero + jax.lax.stop_gradient(jnp.round(x))


x = jnp.array([0.2, 1.7, -0.6, 2.5])
print("jnp.round(x):", jnp.round(x), "  round_ste(x):", round_ste(x))
g_round = jax.grad(lambda x: jnp.sum(jnp.round(x)))(x)
g_ste = jax.grad(lambda x: jnp.sum(round_ste(x)))(x)
print("grad through jnp.round:", g_round, "  through round_ste:", g_ste)

assert jnp.array_equal(round_ste(x), jnp.round(x))  # bit-for-bit the same forward values
assert jnp.array_equal(g_round, jnp.zeros_like(x))  # round is flat almost everywhere
assert jnp.array_equal(g_ste, jnp.ones_like(x))  # the estimator passes the gradient through
zero_term = lambda x: x - jax.lax.stop_gradient(x)
assert jnp.array_equal(zero_term(x), jnp.zeros_like(x))  # exactly zero forward
assert jnp.array_equal(jax.grad(lambda x: jnp.sum(zero_term(x)))(x), jnp.ones_like(x))  # gradient one
