"""What jax.tree.leaves counts as a leaf: containers are opened, everything else is one leaf."""
import jax
import jax.numpy as jnp

examples = {  # the source text as a label, so the output has no memory addresses
    "[1, 'a', object()]": [1, "a", object()],
    "(1, (2, 3), ())": (1, (2, 3), ()),
    "[1, {'k1': 2, 'k2': (3, 4)}, 5]": [1, {"k1": 2, "k2": (3, 4)}, 5],
    "{'a': 2, 'b': (2, 3)}": {"a": 2, "b": (2, 3)},
    "jnp.array([1, 2, 3])": jnp.array([1, 2, 3]),
    "None": None,
    "()": (),
}
counts = {}
for label, tree in examples.items():
    counts[label] = len(jax.tree.leaves(tree))
    print(f"{label:34} leaves: {counts[label]}   {jax.tree.structure(tree)}")

# A string and an arbitrary object are leaves; an empty tuple adds nothing.
assert counts["[1, 'a', object()]"] == 3
assert counts["(1, (2, 3), ())"] == 3
assert counts["[1, {'k1': 2, 'k2': (3, 4)}, 5]"] == 5
assert counts["{'a': 2, 'b': (2, 3)}"] == 3
assert counts["jnp.array([1, 2, 3])"] == 1  # an array is ONE leaf, whatever its size
assert counts["None"] == 0 and counts["()"] == 0  # containers without children
assert jax.tree.leaves([1, {"k1": 2, "k2": (3, 4)}, 5]) == [1, 2, 3, 4, 5]
assert jax.tree.leaves({"b": 1, "a": 2}) == [2, 1]  # dict leaves come in sorted key order
