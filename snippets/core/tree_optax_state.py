"""optax.adam(...).init(params) returns a pytree that holds copies of the params' structure."""
import jax
import jax.numpy as jnp
import optax
from jax.tree_util import keystr

params = {"l1": {"kernel": jnp.ones((4, 8)), "bias": jnp.zeros(8)},
          "l2": {"kernel": jnp.ones((8, 1)), "bias": jnp.zeros(1)}}
opt_state = optax.adam(1e-3).init(params)

print(jax.tree.structure(opt_state))
for path, leaf in jax.tree.leaves_with_path(opt_state):
    print(f"{keystr(path):28} {jnp.shape(leaf)}")

adam_state = opt_state[0]  # a ScaleByAdamState namedtuple: count, mu, nu
assert type(adam_state).__name__ == "ScaleByAdamState"
# mu and nu (first and second moments) each mirror the params tree exactly.
assert jax.tree.structure(adam_state.mu) == jax.tree.structure(params)
assert jax.tree.structure(adam_state.nu) == jax.tree.structure(params)
# Leaves: 1 step count + 4 first moments + 4 second moments.
assert len(jax.tree.leaves(opt_state)) == 1 + 2 * len(jax.tree.leaves(params))
assert type(opt_state[1]).__name__ == "EmptyState" and jax.tree.leaves(opt_state[1]) == []
