"""Train a small Flax NNX classifier on the digits data, fed by a seeded Grain pipeline."""
import grain
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

digits = load_digits()  # 1797 images of 8x8 pixels, 10 classes, shipped with scikit-learn
x = (digits.data / 16.0).astype(np.float32)  # pixels 0..16 scaled to 0..1
y = digits.target.astype(np.int32)
assert x.shape == (1797, 64) and digits.data.max() == 16 and len(np.unique(y)) == 10
x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=0.2, random_state=0)

EPOCHS, BATCH = 3, 64
train = (grain.MapDataset.source(list(zip(x_train, y_train)))  # any sequence is a source
         .shuffle(seed=0)
         .batch(BATCH, drop_remainder=True)  # (x, y) tuples stacked into two arrays
         .repeat(EPOCHS))  # reshuffled each epoch


class Classifier(nnx.Module):
    def __init__(self, rngs):
        self.hidden = nnx.Linear(64, 64, rngs=rngs)
        self.out = nnx.Linear(64, 10, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden(x)))


model = Classifier(nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)
traces = []  # a trace-time side effect: one entry per compilation


@nnx.jit
def train_step(model, optimizer, x, y):
    traces.append(x.shape)

    def loss_fn(model):
        return optax.softmax_cross_entropy_with_integer_labels(model(x), y).mean()
    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


losses = [train_step(model, optimizer, xb, yb) for xb, yb in train]  # NumPy batches in, no wait
steps_per_epoch = len(x_train) // BATCH
epoch_loss = jnp.stack(losses).reshape(EPOCHS, steps_per_epoch).mean(axis=1)
accuracy = float(jnp.mean(model(x_test).argmax(axis=1) == y_test))
print(f"{len(losses)} steps ({EPOCHS} epochs of {steps_per_epoch} batches), traced for {traces}")
print("mean loss per epoch:", np.round(np.asarray(epoch_loss), 3))
print(f"held-out accuracy on {len(y_test)} images: {accuracy:.3f} (asserted >= 0.90)")
assert len(losses) == EPOCHS * steps_per_epoch
assert traces == [(BATCH, 64)]  # drop_remainder: one batch shape, one compilation
assert epoch_loss[-1] < epoch_loss[0] / 2  # the loss more than halves
assert accuracy >= 0.90
