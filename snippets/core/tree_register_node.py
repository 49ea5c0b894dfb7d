"""register_pytree_node tells JAX how to open a class: children to trace, aux data to keep."""
import re

import jax
import jax.numpy as jnp


class Linear:
    def __init__(self, kernel, bias):
        self.kernel = kernel
        self.bias = bias


layer = Linear(jnp.ones((3, 2)), jnp.zeros(2))
print("before registering:", len(jax.tree.leaves(layer)), "leaf:", type(jax.tree.leaves(layer)[0]).__name__)
assert jax.tree.leaves(layer) == [layer]  # an unknown class is one opaque leaf

error = None
try:
    jax.jit(lambda layer: layer.kernel.sum())(layer)
except TypeError as err:
    error = err
message = re.sub(r" at 0x[0-9a-f]+", "", str(error).splitlines()[0])  # the address changes from run to run
print(f"jit before registering: {type(error).__name__}: {message}")
assert "abstract array" in str(error)


def flatten(layer):
    return (layer.kernel, layer.bias), None  # (children, aux data); no aux data here


def unflatten(aux, children):
    return Linear(*children)


jax.tree_util.register_pytree_node(Linear, flatten, unflatten)

print("after registering: ", [leaf.shape for leaf in jax.tree.leaves(layer)])
grads = jax.grad(lambda layer, x: jnp.sum(x @ layer.kernel + layer.bias))(layer, jnp.ones((4, 3)))
print("grad is a", type(grads).__name__, "with kernel gradient", grads.kernel.tolist())

assert len(jax.tree.leaves(layer)) == 2
assert isinstance(grads, Linear)  # transformations rebuild the class with unflatten
assert jnp.allclose(grads.kernel, 4.0) and jnp.allclose(grads.bias, 4.0)
