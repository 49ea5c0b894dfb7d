"""Evaluation needs no gradient switch, and an nnx.view, not model.eval(), puts dropout in eval mode."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx


class CNN(nnx.Module):
    def __init__(self, rngs):
        self.conv1 = nnx.Conv(1, 32, kernel_size=(3, 3), rngs=rngs)
        self.conv2 = nnx.Conv(32, 64, kernel_size=(3, 3), rngs=rngs)
        self.dropout = nnx.Dropout(0.5, rngs=rngs)  # this copy of the CNN has a train/eval switch
        self.head = nnx.Linear(2 * 2 * 64, 10, rngs=rngs)

    def __call__(self, x):
        x = nnx.max_pool(nnx.relu(self.conv1(x)), (2, 2), strides=(2, 2))
        x = nnx.max_pool(nnx.relu(self.conv2(x)), (2, 2), strides=(2, 2))
        return self.head(self.dropout(x.reshape(x.shape[0], -1)))


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


@nnx.jit
def grads_with_images(model, x, y):  # also differentiate with respect to the images
    return nnx.grad(loss_fn, argnums=(0, 1))(model, x, y)


def convolutions(fn, *args):  # count them in the program that jax hands to the compiler
    return fn.lower(*args).as_text().count("stablehlo.convolution")


rng = np.random.default_rng(0)
x, y = rng.random((32, 8, 8, 1), dtype=np.float32), rng.integers(0, 10, size=32)
model = CNN(nnx.Rngs(0))  # built in training mode, and it stays there
eval_model = nnx.view(model, deterministic=True)  # declared once: same variables, dropout off
optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)

n_eval, n_train = convolutions(accuracy, eval_model, x, y), convolutions(train_step, model, optimizer, x, y)
n_images = convolutions(grads_with_images, model, x, y)
print(f"convolutions: accuracy {n_eval}, train step {n_train}, grads incl. the images {n_images}")
assert (n_eval, n_train, n_images) == (2, 5, 6)  # 2 forward; 2 kernel grads + 1 or 2 input grads

train_step(model, optimizer, x, y)  # the view shares the variables: it sees the new weights
assert eval_model.conv1.kernel is model.conv1.kernel and not model.dropout.deterministic


def snapshot():  # copies of every array of the model's state, the dropout key as its raw data
    raw = [jax.random.key_data(a) if jax.dtypes.issubdtype(a.dtype, jax.dtypes.prng_key) else a
           for a in jax.tree.leaves(nnx.state(model))]
    return [np.array(a) for a in raw]


def evaluate(m):  # the accuracy, and whether the evaluation left the model's state as it was
    before = snapshot()
    acc = float(accuracy(m, x, y))
    return acc, all(np.array_equal(a, b) for a, b in zip(before, snapshot()))


acc, unchanged = evaluate(eval_model)
print(f"through eval_model: accuracy {acc:.4f} on random labels; model state unchanged: {unchanged}")
assert unchanged
acc, unchanged = evaluate(model)  # the training-mode model: dropout draws a mask
print(f"through model:      accuracy {acc:.4f} on random labels; model state unchanged: {unchanged}")
assert not unchanged  # the call advanced the dropout RNG count
