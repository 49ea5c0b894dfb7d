"""jax.tree.reduce folds the leaves: a parameter count and a global gradient norm."""
import operator

import jax
import jax.numpy as jnp

params = {"l1": {"kernel": jnp.ones((4, 8)), "bias": jnp.zeros(8)},
          "l2": {"kernel": jnp.ones((8, 1)), "bias": jnp.zeros(1)}}

# Map each leaf to a number, then reduce the numbers with +.
n_params = jax.tree.reduce(operator.add, jax.tree.map(jnp.size, params))
print("parameters:", n_params)

# The same pattern gives the global norm used for gradient clipping.
sq = jax.tree.reduce(lambda acc, g: acc + jnp.sum(g**2), params, initializer=0.0)
print("global norm:", jnp.sqrt(sq))

assert n_params == 4 * 8 + 8 + 8 * 1 + 1
assert jnp.allclose(jnp.sqrt(sq), jnp.sqrt(4 * 8 + 8 * 1))  # the kernels are ones
# The initializer is the starting value; without it the first leaf is.
assert jax.tree.reduce(operator.add, [1, (2, 3)]) == 6
assert jax.tree.reduce(operator.add, [1, (2, 3)], 10) == 16
