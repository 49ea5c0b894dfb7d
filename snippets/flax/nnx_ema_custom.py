"""The EMA by hand: a custom Variable type holds it, updated with [...] and ignored by the optimizer."""
import jax
import jax.numpy as jnp
import optax
from flax import nnx


class EMA(nnx.Variable):  # not a Param: no gradient, no optimizer state
    pass


class Net(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(3, 1, rngs=rngs)
        self.kernel_ema = EMA(self.linear.kernel[...])  # starts as a copy of the kernel

    def __call__(self, x):
        return self.linear(x)

    def update_ema(self, decay=0.9):
        self.kernel_ema[...] = decay * self.kernel_ema[...] + (1 - decay) * self.linear.kernel[...]


model = Net(nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.sgd(0.1, momentum=0.9), wrt=nnx.Param)
x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
y = jnp.ones((4, 1))
expected = model.kernel_ema[...]
for _ in range(5):
    grads = nnx.grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    optimizer.update(model, grads)  # changes the Params only
    model.update_ema()
    expected = 0.9 * expected + 0.1 * model.linear.kernel[...]  # the same average, by hand

print("gradients for:", sorted(nnx.to_pure_dict(grads)))
opt_shapes = jax.tree.map(jnp.shape, nnx.to_pure_dict(nnx.state(optimizer)))
print("optimizer state:", opt_shapes)
print("kernel:", [f"{v:.3f}" for v in model.linear.kernel[...].ravel()])
print("EMA:   ", [f"{v:.3f}" for v in model.kernel_ema[...].ravel()])
assert sorted(nnx.to_pure_dict(grads)) == ["linear"]
assert list(opt_shapes["opt_state"][0]["trace"]) == ["linear"]  # no momentum for the EMA
assert jnp.allclose(model.kernel_ema[...], expected, atol=1e-6)  # only update_ema changed it
assert not jnp.allclose(model.kernel_ema[...], model.linear.kernel[...])
