"""What nnx.jit does with a model argument: trace once, pass the arrays in, write the new ones back."""
import numpy as np
import optax
from flax import nnx


class CNN(nnx.Module):
    def __init__(self, rngs):
        self.conv = nnx.Conv(1, 8, kernel_size=(3, 3), rngs=rngs)
        self.head = nnx.Linear(4 * 4 * 8, 10, rngs=rngs)

    def __call__(self, x):
        x = nnx.max_pool(nnx.relu(self.conv(x)), (2, 2), strides=(2, 2))
        return self.head(x.reshape(x.shape[0], -1))


traces = []  # Python code in the step runs only while jax traces it


@nnx.jit
def train_step(model, optimizer, x, y):
    traces.append(type(model.conv.kernel[...]).__name__)  # what the step sees inside
    def loss_fn(model):
        return optax.softmax_cross_entropy_with_integer_labels(model(x), y).mean()

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


rng = np.random.default_rng(0)
x, y = rng.random((32, 8, 8, 1), dtype=np.float32), rng.integers(0, 10, size=32)
tx = optax.adam(1e-3)
model = CNN(nnx.Rngs(0))
optimizer = nnx.Optimizer(model, tx, wrt=nnx.Param)
kernel_var, kernel_before = model.conv.kernel, np.array(model.conv.kernel[...])
for _ in range(5):
    train_step(model, optimizer, x, y)
print("inside the step, the kernel is a", traces[0])
print("after 5 steps: traces", len(traces), "| optimizer.step", int(optimizer.step[...]),
      "| same Variable object:", model.conv.kernel is kernel_var,
      "| values changed:", not np.allclose(model.conv.kernel[...], kernel_before))
assert len(traces) == 1 and int(optimizer.step[...]) == 5 and traces[0].endswith("Tracer")
assert model.conv.kernel is kernel_var and not np.allclose(model.conv.kernel[...], kernel_before)

counts = []
train_step(model, optimizer, x[:29], y[:29])  # a smaller last batch: a new input shape
counts.append(len(traces))
model2 = CNN(nnx.Rngs(1))  # same structure, other values
train_step(model2, nnx.Optimizer(model2, tx, wrt=nnx.Param), x, y)
counts.append(len(traces))
train_step(model2, nnx.Optimizer(model2, optax.adam(1e-3), wrt=nnx.Param), x, y)
counts.append(len(traces))
print("traces after: a batch of 29 -> %d, a new model with the same tx -> %d,"
      " a new optax.adam object -> %d" % tuple(counts))
assert counts == [2, 2, 3]
assert optax.adam(1e-3) != optax.adam(1e-3)  # new functions each time: a new cache key
