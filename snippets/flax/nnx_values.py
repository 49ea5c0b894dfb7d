"""Read and write an NNX variable with [...]; rebinding the attribute replaces the Param instead."""
import jax
import jax.numpy as jnp
import torch
from flax import nnx

layer = nnx.Linear(2, 3, rngs=nnx.Rngs(0))
kernel = layer.kernel[...]  # read: a plain jax.Array
print(type(layer.kernel).__name__, "->", type(kernel).__name__, kernel.shape, kernel.dtype)
assert isinstance(kernel, jax.Array) and not isinstance(layer.kernel, jax.Array)

layer.bias[...] = jnp.ones(3)  # write the whole value, in place
layer.kernel[0] = jnp.zeros(3)  # write one row
layer.bias[...] += 1.0  # update from the old value
print("bias:", layer.bias[...], "| kernel row 0:", layer.kernel[0])
assert jnp.array_equal(layer.bias[...], jnp.full(3, 2.0))
assert jnp.array_equal(layer.kernel[0], jnp.zeros(3))
assert jnp.array_equal(layer.kernel[1], kernel[1])  # the other row is untouched

try:  # the new value must fit the old shape
    layer.bias[...] = jnp.ones(4)
except ValueError as err:
    print("ValueError:", err)
else:
    raise AssertionError("a value of another shape was accepted")

# Sharp edge: assigning an array to the attribute does not write into the Param,
# it replaces it; the attribute is then state but not a Param, so it gets no gradient.
layer.bias = jnp.zeros(3)
grads = nnx.grad(lambda m: jnp.sum(m(jnp.ones((1, 2)))))(layer)
print("Params now:", sorted(nnx.to_pure_dict(nnx.state(layer, nnx.Param))))
print("gradients now:", sorted(nnx.to_pure_dict(grads)))
assert sorted(nnx.to_pure_dict(grads)) == ["kernel"]
assert sorted(nnx.to_pure_dict(nnx.state(layer))) == ["bias", "kernel"]

try:  # PyTorch refuses the same assignment instead
    torch.nn.Linear(2, 3).bias = torch.zeros(3)
except TypeError as err:
    print("torch TypeError:", err)
else:
    raise AssertionError("torch accepted a plain tensor for a Parameter")
