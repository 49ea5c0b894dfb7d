"""jax.tree.flatten splits a pytree into leaves and a treedef; jax.tree.unflatten rebuilds it."""
import jax
import jax.numpy as jnp

params = {"l1": {"kernel": jnp.ones((2, 3)), "bias": jnp.zeros(3)},
          "l2": [jnp.ones((3, 1)), None]}  # a list, and None as a placeholder

leaves, treedef = jax.tree.flatten(params)
print("leaves:", [leaf.shape for leaf in leaves])
print("treedef:", treedef)
print("num_leaves:", treedef.num_leaves)

# Round trip: the same leaves in the same treedef give back an equal pytree.
rebuilt = jax.tree.unflatten(treedef, leaves)
assert jax.tree.structure(rebuilt) == treedef
assert all(a is b for a, b in zip(jax.tree.leaves(rebuilt), leaves))

# New leaves, same order: this is how tree.map works inside.
zeros = jax.tree.unflatten(treedef, [jnp.zeros_like(leaf) for leaf in leaves])
print("zeros['l1']['bias']:", zeros["l1"]["bias"])

# jax.tree.structure returns the treedef alone; equal structures compare equal.
assert jax.tree.structure(params) == treedef == jax.tree.structure(zeros)
assert treedef.num_leaves == len(leaves) == 3  # None is not a leaf
assert zeros["l2"][1] is None
# A different nesting of the same leaves is a different structure.
assert jax.tree.structure([leaves]) != treedef

# jit keys its cache on the treedef: same structure, one trace; new structure, new trace.
traces = []


@jax.jit
def total(tree):
    traces.append(jax.tree.structure(tree))  # runs only while tracing
    return sum(jnp.sum(leaf) for leaf in jax.tree.leaves(tree))


total(params), total(zeros), total([leaves])
print("traces:", len(traces))
assert len(traces) == 2
