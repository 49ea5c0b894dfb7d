"""Flax NNX: nnx.Optimizer keeps the Adam state next to the model and updates it in place."""
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx

rng = np.random.default_rng(0)
x = rng.normal(size=(32, 4)).astype(np.float32)
y = np.sin(x.sum(axis=1, keepdims=True))


class MLP(nnx.Module):
    def __init__(self, rngs):
        self.l1 = nnx.Linear(4, 8, rngs=rngs)
        self.l2 = nnx.Linear(8, 1, rngs=rngs)

    def __call__(self, x):
        return self.l2(jnp.tanh(self.l1(x)))


model = MLP(nnx.Rngs(0))  # 1. the parameters live in the module, as in torch
optimizer = nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)  # 2. state for Params


def loss_fn(model, x, y):
    return jnp.mean((model(x) - y) ** 2)  # 3. forward, 4. loss


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)  # 5. fresh grads, no .grad
    optimizer.update(model, grads)  # 6. tx.update + apply_updates, written into model
    return loss


kernel_before = np.array(model.l1.kernel[...])
losses = [float(train_step(model, optimizer, x, y)) for _ in range(20)]
print("l1 kernel shape:", model.l1.kernel.shape, "| optimizer.step:", optimizer.step[...])
print(f"loss after step 1: {losses[0]:.4f}, after step 20: {losses[-1]:.4f}")

assert model.l1.kernel.shape == (4, 8)  # Flax kernels are (in, out)
assert not np.allclose(model.l1.kernel[...], kernel_before)  # same model object, new values
assert int(optimizer.step[...]) == 20 and losses[-1] < losses[0]
