"""JAX model and optimizer init: a key gives a params pytree, tx.init gives the Adam state."""
import jax
import jax.numpy as jnp
import numpy as np
import optax


def dense(key, n_in, n_out):
    kw, kb = jax.random.split(key)
    s = 1 / np.sqrt(n_in)  # torch's default Linear range
    return {"kernel": jax.random.uniform(kw, (n_in, n_out), minval=-s, maxval=s),
            "bias": jax.random.uniform(kb, (n_out,), minval=-s, maxval=s)}


def init_params(key):
    k1, k2 = jax.random.split(key)
    return {"l1": dense(k1, 4, 8), "l2": dense(k2, 8, 1)}


params = init_params(jax.random.key(0))
print(jax.tree.map(jnp.shape, params))

tx = optax.adam(1e-2)
opt_state = tx.init(params)  # the Adam moments exist now, as an ordinary value
mu = optax.tree.get(opt_state, "mu")
print("count:", optax.tree.get(opt_state, "count"), "mu:", jax.tree.map(jnp.shape, mu))

assert params["l1"]["kernel"].shape == (4, 8)  # (in, out), the transpose of torch
nu = optax.tree.get(opt_state, "nu")
assert jax.tree.structure(mu) == jax.tree.structure(params)  # one moment per parameter
assert jax.tree.structure(nu) == jax.tree.structure(params)  # and the second moment too
assert optax.tree.get(opt_state, "count") == 0  # created at once, before any step
# No global seed: the same key gives the same weights, another key gives others.
same = init_params(jax.random.key(0))
assert all(jax.tree.leaves(jax.tree.map(jnp.array_equal, params, same)))
assert not jnp.array_equal(init_params(jax.random.key(1))["l1"]["kernel"], params["l1"]["kernel"])
