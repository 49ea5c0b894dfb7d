"""The old top-level jax.tree_* aliases are gone; jax.tree.* (and jax.tree_util.*) remain."""
import jax
import jax.numpy as jnp

old_to_new = {
    "tree_map": jax.tree.map,
    "tree_leaves": jax.tree.leaves,
    "tree_flatten": jax.tree.flatten,
    "tree_unflatten": jax.tree.unflatten,
    "tree_structure": jax.tree.structure,
    "tree_transpose": jax.tree.transpose,
}
for old, new in old_to_new.items():
    check = f"hasattr(jax, {old!r})"
    print(f"{check:31} = {hasattr(jax, old)}  ->  use jax.tree.{new.__name__}")
    assert not hasattr(jax, old)  # removed: using it raises AttributeError

error = None
try:
    jax.tree_map(jnp.sin, [0.0])
except AttributeError as err:
    error = err
print("jax.tree_map(...):", type(error).__name__, "-", error)
assert isinstance(error, AttributeError)

# The long names in jax.tree_util still exist and give the same results.
tree = {"a": jnp.arange(3.0), "b": (1.0, 2.0)}
assert jax.tree_util.tree_leaves(tree) == jax.tree.leaves(tree)
assert jax.tree_util.tree_structure(tree) == jax.tree.structure(tree)
