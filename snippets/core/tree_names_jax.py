"""JAX: the params are a nested dict; key paths give the same dotted names when needed."""
import jax
import jax.numpy as jnp
from jax.tree_util import keystr, tree_flatten_with_path


def dense(key, n_in, n_out):
    return {"kernel": jax.random.normal(key, (n_in, n_out)) / jnp.sqrt(n_in),
            "bias": jnp.zeros(n_out)}


k1, k2 = jax.random.split(jax.random.key(0))
params = {"l1": dense(k1, 4, 8), "l2": dense(k2, 8, 1)}

path_leaves, _ = tree_flatten_with_path(params)
for path, leaf in path_leaves:
    print(f"{keystr(path, simple=True, separator='.'):10} {leaf.shape}")

# The names are computed from the nesting; the nesting itself stays.
names = [keystr(p, simple=True, separator=".") for p, _ in path_leaves]
assert names == ["l1.bias", "l1.kernel", "l2.bias", "l2.kernel"]  # dict keys sorted
assert params["l1"]["kernel"].shape == (4, 8)  # (in, out): the transpose of torch
# A flat {name: array} dict, like a state_dict, is one comprehension away.
flat = {name: leaf for name, (_, leaf) in zip(names, path_leaves)}
assert flat["l2.kernel"] is params["l2"]["kernel"]
