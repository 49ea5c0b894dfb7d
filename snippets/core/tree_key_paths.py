"""Key paths name every leaf: print parameter names with tree_flatten_with_path and keystr."""
import jax
import jax.numpy as jnp
from jax.tree_util import keystr, tree_flatten_with_path

params = {"encoder": [{"kernel": jnp.ones((4, 8)), "bias": jnp.zeros(8)},
                      {"kernel": jnp.ones((8, 8)), "bias": jnp.zeros(8)}],
          "head": {"kernel": jnp.ones((8, 2))}}

path_leaves, treedef = tree_flatten_with_path(params)
for path, leaf in path_leaves:
    # keystr(path) is Python indexing syntax; simple=True gives a compact name.
    print(f"{keystr(path):28} {keystr(path, simple=True, separator='/'):20} {leaf.shape}")

names = [keystr(path, simple=True, separator="/") for path, _ in path_leaves]
# A path is a tuple of keys: DictKey for dicts, SequenceKey for lists and tuples.
first_path = path_leaves[0][0]
print(first_path)

assert names == ["encoder/0/bias", "encoder/0/kernel", "encoder/1/bias",
                 "encoder/1/kernel", "head/kernel"]
assert keystr(first_path) == "['encoder'][0]['bias']"
assert isinstance(first_path[1], jax.tree_util.SequenceKey) and first_path[1].idx == 0
# Same order as jax.tree.leaves, so names and leaves line up.
assert all(a is b for (_, a), b in zip(path_leaves, jax.tree.leaves(params)))
