"""nnx.state shares the model's Variables; jax.tree.map makes new ones; nnx.clone copies a model."""
import jax
import jax.numpy as jnp
import torch
from flax import nnx

model = nnx.Linear(2, 3, rngs=nnx.Rngs(0))
state = nnx.state(model, nnx.Param)
print("state holds the model's Variable:", state["bias"] is model.bias)
state["bias"][...] = jnp.full(3, 5.0)  # writing through the state writes the model
assert state["bias"] is model.bias and jnp.array_equal(model.bias[...], jnp.full(3, 5.0))

# The same holds for torch's state_dict(): its tensors share memory with the module.
layer_t = torch.nn.Linear(2, 3)
layer_t.state_dict()["bias"].fill_(5.0)
assert torch.equal(layer_t.bias.detach(), torch.full((3,), 5.0))

# State is a pytree: jax.tree.map returns a new State, and the model is untouched...
halved = jax.tree.map(lambda a: a / 2, state)
print("after tree.map: model bias", model.bias[...], "| new state bias", halved["bias"][...])
assert halved["bias"] is not model.bias and jnp.array_equal(model.bias[...], jnp.full(3, 5.0))
nnx.update(model, halved)  # ...until nnx.update writes it back
print("after nnx.update: model bias", model.bias[...])
assert jnp.array_equal(model.bias[...], jnp.full(3, 2.5))

graphdef, state = nnx.split(model)
shared = nnx.merge(graphdef, state)  # copy=False by default: the same Variables
copied = nnx.merge(graphdef, state, copy=True)
cloned = nnx.clone(model)  # like copy.deepcopy(model)
model.bias[...] = jnp.zeros(3)
print("after model.bias[...] = 0:",
      {n: float(m.bias[0]) for n, m in [("shared", shared), ("copied", copied), ("cloned", cloned)]})
assert jnp.array_equal(shared.bias[...], jnp.zeros(3))
assert jnp.array_equal(copied.bias[...], jnp.full(3, 2.5))
assert jnp.array_equal(cloned.bias[...], jnp.full(3, 2.5))
