"""Train a small Flax NNX CNN on scikit-learn's 8x8 digits and plot loss and held-out accuracy."""
# The timings this program prints differ from run to run and from machine to machine.
import os
import platform
import time
import jax
import jax.numpy as jnp
import matplotlib.pyplot as plt
import numpy as np
import optax
from flax import nnx
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

digits = load_digits()  # ships with scikit-learn: 1797 images, no download
x = (digits.images / 16.0).astype(np.float32)[..., None]  # NHWC: (N, 8, 8, 1), in [0, 1]
x_train, x_test, y_train, y_test = train_test_split(
    x, digits.target, test_size=0.2, random_state=0, stratify=digits.target)


class CNN(nnx.Module):
    def __init__(self, rngs):
        self.conv1 = nnx.Conv(1, 32, kernel_size=(3, 3), rngs=rngs)
        self.conv2 = nnx.Conv(32, 64, kernel_size=(3, 3), rngs=rngs)
        self.head = nnx.Linear(2 * 2 * 64, 10, rngs=rngs)

    def __call__(self, x):  # x: (batch, 8, 8, 1)
        x = nnx.max_pool(nnx.relu(self.conv1(x)), (2, 2), strides=(2, 2))  # (batch, 4, 4, 32)
        x = nnx.max_pool(nnx.relu(self.conv2(x)), (2, 2), strides=(2, 2))  # (batch, 2, 2, 64)
        return self.head(x.reshape(x.shape[0], -1))  # flatten, then 10 logits


def loss_fn(model, x, y):
    logits = model(x)
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)  # writes the new parameters into model
    return loss


@nnx.jit
def accuracy(model, x, y):  # a forward pass only: no gradient is ever computed here
    return jnp.mean(jnp.argmax(model(x), axis=-1) == y)


model = CNN(nnx.Rngs(0))  # seed 1: the initial weights
optimizer = nnx.Optimizer(model, optax.adamw(3e-3, weight_decay=1e-4), wrt=nnx.Param)
rng = np.random.default_rng(0)  # seed 2: the order of the mini-batches
epochs, batch = 10, 32
losses, accs, seconds = [], [], []
for epoch in range(epochs):
    start = time.perf_counter()
    order = rng.permutation(len(x_train))
    steps = len(order) // batch  # drop the last partial batch: one shape, one compilation
    total = 0.0
    for i in range(steps):
        idx = order[i * batch:(i + 1) * batch]
        total += train_step(model, optimizer, x_train[idx], y_train[idx])
    losses.append(float(total.block_until_ready()) / steps)
    seconds.append(time.perf_counter() - start)
    accs.append(float(accuracy(model, x_test, y_test)))
    print(f"epoch {epoch + 1:2d}  train loss {losses[-1]:.4f}  held-out accuracy {accs[-1]:.4f}")

print(f"{len(x)} images {x.shape[1:]}, {len(np.unique(digits.target))} classes;"
      f" train {len(x_train)}, held out {len(x_test)}")
print(f"final held-out accuracy {accs[-1]:.4f} (asserted >= 0.97)")
assert accs[-1] >= 0.97 and losses[-1] < losses[0]
print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, JAX backend: {jax.default_backend()}")
print(f"training wall time: {sum(seconds):.2f} s for {epochs} epochs; epoch 1 with compilation {seconds[0]:.2f} s,"
      f" median later epoch {np.median(seconds[1:]):.2f} s")
assert seconds[0] > np.median(seconds[1:])  # robust: only the first epoch compiles the step

plt.figure(figsize=(5, 3.2))
plt.subplot(1, 2, 1)
plt.plot(range(1, epochs + 1), losses, "o-")
plt.xlabel("epoch")
plt.ylabel("training loss")
plt.subplot(1, 2, 2)
plt.plot(range(1, epochs + 1), accs, "s-", color="tab:orange")
plt.axhline(0.97, color="gray", linestyle="--")  # the asserted minimum
plt.xlabel("epoch")
plt.ylabel("held-out accuracy")
plt.tight_layout()
plt.show()
