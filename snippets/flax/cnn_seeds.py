"""Three seeds fix the run: the split, the initial weights and the batch order."""
import jax
import numpy as np
import optax
from flax import nnx
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

digits = load_digits()
x = (digits.images / 16.0).astype(np.float32)[..., None]


class CNN(nnx.Module):
    def __init__(self, rngs):
        self.conv = nnx.Conv(1, 16, kernel_size=(3, 3), rngs=rngs)
        self.head = nnx.Linear(4 * 4 * 16, 10, rngs=rngs)

    def __call__(self, x):
        x = nnx.max_pool(nnx.relu(self.conv(x)), (2, 2), strides=(2, 2))
        return self.head(x.reshape(x.shape[0], -1))


traces = []


@nnx.jit
def train_step(model, optimizer, x, y):
    traces.append(1)  # runs only while jax traces the step
    def loss_fn(model):
        return optax.softmax_cross_entropy_with_integer_labels(model(x), y).mean()

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


tx = optax.adamw(3e-3, weight_decay=1e-4)  # one object for all runs: one compilation


def run(split_seed, init_seed, shuffle_seed, batch=32):
    x_tr, _, y_tr, _ = train_test_split(x, digits.target, test_size=0.2,
                                        random_state=split_seed, stratify=digits.target)
    model = CNN(nnx.Rngs(init_seed))
    optimizer = nnx.Optimizer(model, tx, wrt=nnx.Param)
    order = np.random.default_rng(shuffle_seed).permutation(len(x_tr))
    for i in range(len(order) // batch):  # one epoch
        idx = order[i * batch:(i + 1) * batch]
        train_step(model, optimizer, x_tr[idx], y_tr[idx])
    return [np.asarray(p) for p in jax.tree.leaves(nnx.state(model, nnx.Param))]


def same(a, b):
    return all(np.array_equal(p, q) for p, q in zip(a, b))  # bit for bit


ref = run(0, 0, 0)
results = {"all seeds 0 again": same(ref, run(0, 0, 0)),
           "split seed 1": same(ref, run(1, 0, 0)),
           "init seed 1": same(ref, run(0, 1, 0)),
           "shuffle seed 1": same(ref, run(0, 0, 1))}
for name, equal in results.items():
    print(f"{name:<18} -> weights identical to the first run: {equal}")
print("5 runs, traces of the step:", len(traces))
assert list(results.values()) == [True, False, False, False] and len(traces) == 1
