"""register_dataclass: array fields are leaves, fields marked static go into the treedef."""
import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Dense:
    kernel: jax.Array  # data field: a leaf, traced by jit
    bias: jax.Array
    activation: str = dataclasses.field(default="tanh", metadata=dict(static=True))


traces = []


@jax.jit
def apply(layer, x):
    traces.append(layer.activation)  # runs only while tracing
    act = {"tanh": jnp.tanh, "relu": jax.nn.relu}[layer.activation]  # a Python choice
    return act(x @ layer.kernel + layer.bias)


layer = Dense(jnp.ones((3, 2)), jnp.zeros(2))
print(jax.tree.structure(layer))
for path, leaf in jax.tree.leaves_with_path(layer):
    print(jax.tree_util.keystr(path), leaf.shape)

x = jnp.ones((1, 3))
apply(layer, x)
apply(Dense(2 * layer.kernel, layer.bias), x)  # new arrays, same static value: no retrace
apply(Dense(layer.kernel, layer.bias, "relu"), x)  # new static value: a new trace
print("traces:", traces)

assert len(jax.tree.leaves(layer)) == 2  # the string is not a leaf
assert [jax.tree_util.keystr(p) for p, _ in jax.tree.leaves_with_path(layer)] == [".kernel", ".bias"]
assert all(isinstance(p[0], jax.tree_util.GetAttrKey) for p, _ in jax.tree.leaves_with_path(layer))
assert traces == ["tanh", "relu"]
# jax.tree.static(...) is shorthand for the same dataclasses.field metadata.
assert dict(jax.tree.static(default="tanh").metadata) == {"static": True}
