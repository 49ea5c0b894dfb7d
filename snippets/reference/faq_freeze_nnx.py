"""Freeze a submodule in Flax NNX: a filter chooses what nnx.grad and nnx.Optimizer see."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx


class Net(nnx.Module):
    def __init__(self, rngs):
        self.backbone = nnx.Linear(4, 8, rngs=rngs)
        self.head = nnx.Linear(8, 1, rngs=rngs)

    def __call__(self, x):
        return self.head(jnp.tanh(self.backbone(x)))


model = Net(nnx.Rngs(0))
x = jax.random.normal(jax.random.key(1), (16, 4))
trainable = nnx.All(nnx.Param, nnx.PathContains("head"))  # only the head's parameters

optimizer = nnx.Optimizer(model, optax.adam(1e-2), wrt=trainable)
backbone_before = np.array(model.backbone.kernel[...])
head_before = np.array(model.head.kernel[...])


def loss_fn(model, x):
    return jnp.mean(model(x) ** 2)


# DiffState(0, trainable): differentiate argument 0, but only the variables the filter selects.
grads = nnx.grad(loss_fn, argnums=nnx.DiffState(0, trainable))(model, x)
print("gradients for:", sorted(nnx.to_pure_dict(grads)))
assert sorted(nnx.to_pure_dict(grads)) == ["head"]
optimizer.update(model, grads)

print("backbone unchanged:", np.array_equal(backbone_before, model.backbone.kernel[...]))
print("head changed:", not np.array_equal(head_before, model.head.kernel[...]))
assert np.array_equal(backbone_before, model.backbone.kernel[...])
assert not np.array_equal(head_before, model.head.kernel[...])
