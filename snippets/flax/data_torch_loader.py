"""A torch DataLoader can feed a jitted JAX step: convert each batch with np.asarray."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
import torch
from torch.utils.data import DataLoader, TensorDataset

rng = np.random.default_rng(0)
x = rng.normal(size=(10, 3)).astype(np.float32)
y = np.arange(10)  # int64 labels, one class per example, so the order is visible
dataset = TensorDataset(torch.from_numpy(x), torch.from_numpy(y))


def make_loader(seed):
    return DataLoader(dataset, batch_size=4, shuffle=True, num_workers=0,
                      generator=torch.Generator().manual_seed(seed))


@jax.jit
def step(w, xb, yb):
    loss_fn = lambda w: optax.softmax_cross_entropy_with_integer_labels(xb @ w, yb).mean()
    loss, grad = jax.value_and_grad(loss_fn)(w)
    return w - 0.5 * grad, loss


loader, w, orders, losses = make_loader(0), jnp.zeros((3, 10)), [], []
for epoch in range(3):
    order = []
    for xt, yt in loader:
        xb, yb = np.asarray(xt), np.asarray(yt)  # CPU tensor -> NumPy view, no copy
        w, loss = step(w, xb, yb)
        order += yb.tolist()
        losses.append(loss)
    orders.append(order)
    print(f"epoch {epoch}: order {order}, mean loss {float(jnp.mean(jnp.stack(losses[-3:]))):.3f}")

print("batch dtypes:", xb.dtype, yb.dtype, "-> inside JAX:", jnp.asarray(yb).dtype)
assert all(sorted(o) == list(range(10)) for o in orders)  # each example once per epoch
assert orders[0] != orders[1]  # the generator moves on: a new order each epoch
again = [np.asarray(yt).tolist() for _, yt in make_loader(0)]
assert sum(again, []) == orders[0]  # a new generator with the same seed: same order
assert np.shares_memory(xb, xt.numpy())
assert yb.dtype == np.int64 and jnp.asarray(yb).dtype == jnp.int32  # 64-bit types are off
assert np.array_equal(xb, x[yb])  # the converted batch holds the dataset's rows, bit for bit
# The JAX loss on the converted batch is the loss torch computes on the same numbers. Full float32
# products for this check: a TPU's default is one bfloat16 pass (TF32 on an A100 or H100).
# Off the CPU, exp and log are the device's own too (1.6e-5 relative on a TPU v5e): tolerance 1e-4 there.
ref = torch.nn.functional.cross_entropy(xt @ torch.from_numpy(np.array(w)), yt)
with jax.default_matmul_precision("highest"):
    rel = abs(float(step(w, xb, yb)[1]) / ref.item() - 1)
tol = 1e-5 if jax.default_backend() == "cpu" else 1e-4
print(f"|JAX loss / torch loss - 1| on the last batch: {rel:.1e} (asserted < {tol:.0e} on {jax.default_backend()})")
assert rel < tol
assert float(jnp.mean(jnp.stack(losses[-3:]))) < float(jnp.mean(jnp.stack(losses[:3])))  # it learns
