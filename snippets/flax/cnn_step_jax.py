"""Flax NNX: the same CNN training step as one nnx.jit function."""
import numpy as np
import optax
from flax import nnx

rng = np.random.default_rng(0)  # numpy gives both tabs the same small batch
x = rng.random((16, 8, 8, 1), dtype=np.float32)  # NHWC: channels last
y = rng.integers(0, 10, size=16)


class CNN(nnx.Module):
    def __init__(self, rngs):
        self.conv1 = nnx.Conv(1, 32, kernel_size=(3, 3), rngs=rngs)  # padding="SAME"
        self.conv2 = nnx.Conv(32, 64, kernel_size=(3, 3), rngs=rngs)
        self.head = nnx.Linear(2 * 2 * 64, 10, rngs=rngs)

    def __call__(self, x):
        x = nnx.max_pool(nnx.relu(self.conv1(x)), (2, 2), strides=(2, 2))  # (16, 4, 4, 32)
        x = nnx.max_pool(nnx.relu(self.conv2(x)), (2, 2), strides=(2, 2))  # (16, 2, 2, 64)
        return self.head(x.reshape(x.shape[0], -1))


model = CNN(nnx.Rngs(0))  # the initial weights
optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss_fn(model):
        return optax.softmax_cross_entropy_with_integer_labels(model(x), y).mean()

    loss, grads = nnx.value_and_grad(loss_fn)(model)  # fresh grads: nothing to zero
    optimizer.update(model, grads)  # update the weights in model
    return loss


model.train()  # same name as in PyTorch; a no-op here, with no Dropout or BatchNorm
losses = [float(train_step(model, optimizer, x, y)) for _ in range(5)]
print("input", x.shape, "| conv1 kernel", model.conv1.kernel.shape)
print("loss per step:", np.round(losses, 4))
assert all(b < a for a, b in zip(losses, losses[1:]))  # each of the five Adam steps lowers the loss
