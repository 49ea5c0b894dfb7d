"""Replace the last layer of a live NNX model; an optimizer built before the change must be rebuilt."""
import jax
import jax.numpy as jnp
import optax
from flax import nnx


class Net(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.body = nnx.Linear(3, 8, rngs=rngs)
        self.head = nnx.Linear(8, 2, rngs=rngs)

    def __call__(self, x):
        return self.head(jax.nn.relu(self.body(x)))


model = Net(nnx.Rngs(0))
old_optimizer = nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)
x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
body_before = model.body.kernel[...]
print("before:", model(x).shape)

model.head = nnx.Linear(8, 5, rngs=nnx.Rngs(1))  # as in torch: model.head = nn.Linear(8, 5)
print("after: ", model(x).shape, "| head kernel", model.head.kernel.shape)
assert model(x).shape == (4, 5)
assert jnp.array_equal(model.body.kernel[...], body_before)  # the rest keeps its weights

old_mu = nnx.to_pure_dict(nnx.state(old_optimizer))["opt_state"][0]["mu"]
assert old_mu["head"]["kernel"].shape == (8, 2)  # sized for the old head
grads = nnx.grad(lambda m: jnp.mean(m(x) ** 2))(model)
try:
    old_optimizer.update(model, grads)
except TypeError as err:
    print("old optimizer, moments", old_mu["head"]["kernel"].shape, "->", type(err).__name__, err)
else:
    raise AssertionError("the old optimizer accepted the new head")

optimizer = nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)  # built after the change
optimizer.update(model, grads)
print("new optimizer step:", int(optimizer.step[...]))
assert int(optimizer.step[...]) == 1
