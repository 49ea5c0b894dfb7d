"""Evaluation needs no gradient switch: the compiled eval step holds no backward pass and changes nothing."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx


class CNN(nnx.Module):
    def __init__(self, rngs):
        self.conv1 = nnx.Conv(1, 32, kernel_size=(3, 3), rngs=rngs)
        self.conv2 = nnx.Conv(32, 64, kernel_size=(3, 3), rngs=rngs)
        self.head = nnx.Linear(2 * 2 * 64, 10, rngs=rngs)

    def __call__(self, x):
        x = nnx.max_pool(nnx.relu(self.conv1(x)), (2, 2), strides=(2, 2))
        x = nnx.max_pool(nnx.relu(self.conv2(x)), (2, 2), strides=(2, 2))
        return self.head(x.reshape(x.shape[0], -1))


def loss_fn(model, x, y):
    return optax.softmax_cross_entropy_with_integer_labels(model(x), y).mean()


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)
    return loss


@nnx.jit
def accuracy(model, x, y):
    return jnp.mean(jnp.argmax(model(x), axis=-1) == y)


rng = np.random.default_rng(0)
x, y = rng.random((32, 8, 8, 1), dtype=np.float32), rng.integers(0, 10, size=32)
model = CNN(nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)

@nnx.jit
def grads_with_images(model, x, y):  # also differentiate with respect to the images
    return nnx.grad(loss_fn, argnums=(0, 1))(model, x, y)


def convolutions(fn, *args):  # count them in the program that jax hands to the compiler
    return fn.lower(*args).as_text().count("stablehlo.convolution")


n_eval, n_train = convolutions(accuracy, model, x, y), convolutions(train_step, model, optimizer, x, y)
n_images = convolutions(grads_with_images, model, x, y)
print(f"convolutions: accuracy {n_eval}, train step {n_train}, grads incl. the images {n_images}")
assert (n_eval, n_train, n_images) == (2, 5, 6)  # 2 forward; 2 kernel grads + 1 or 2 input grads

before = [np.array(v) for v in jax.tree.leaves(nnx.state(model))]
acc = float(accuracy(model, x, y))
unchanged = all(np.array_equal(a, b) for a, b in zip(before, jax.tree.leaves(nnx.state(model))))
print(f"accuracy {acc:.4f} on random labels; model state unchanged: {unchanged}")
assert unchanged
