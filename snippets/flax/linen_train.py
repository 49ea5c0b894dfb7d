"""Train a Linen CNN with optax: mutable batch_stats come back from apply, dropout gets a key."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from sklearn.datasets import load_digits


class CNN(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool):
        x = nn.Conv(features=16, kernel_size=(3, 3))(x)
        x = nn.BatchNorm(use_running_average=not train)(x)
        x = nn.max_pool(nn.relu(x), window_shape=(2, 2), strides=(2, 2))
        x = nn.Dropout(rate=0.5, deterministic=not train)(x.reshape(x.shape[0], -1))
        return nn.Dense(features=10)(x)


digits = load_digits()  # ships with scikit-learn, no download
x = (digits.images[:64] / 16.0).astype(np.float32)[..., None]  # one fixed batch, NHWC
y = digits.target[:64]

model = CNN()
variables = model.init(jax.random.key(0), x, train=False)
params, batch_stats = variables["params"], variables["batch_stats"]
tx = optax.adam(1e-2)
opt_state = tx.init(params)  # only params are trained, never batch_stats


def loss_fn(params, batch_stats, x, y, dropout_key):
    logits, updates = model.apply(
        {"params": params, "batch_stats": batch_stats}, x, train=True,
        mutable=["batch_stats"], rngs={"dropout": dropout_key})
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()
    return loss, updates["batch_stats"]  # the new running averages ride along as aux


@jax.jit
def train_step(params, batch_stats, opt_state, x, y, dropout_key):
    (loss, batch_stats), grads = jax.value_and_grad(loss_fn, has_aux=True)(
        params, batch_stats, x, y, dropout_key)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), batch_stats, opt_state, loss


key = jax.random.key(1)
losses = []
for step in range(30):
    key, dropout_key = jax.random.split(key)  # a new dropout mask at every step
    params, batch_stats, opt_state, loss = train_step(
        params, batch_stats, opt_state, x, y, dropout_key)
    losses.append(float(loss))

mean0 = variables["batch_stats"]["BatchNorm_0"]["mean"]
mean = batch_stats["BatchNorm_0"]["mean"]
print(f"loss at step 1: {losses[0]:.4f}, at step 30: {losses[-1]:.4f}")
print("running mean at init:", np.round(mean0[:4], 3), "after training:", np.round(mean[:4], 3))
assert losses[-1] < 0.5 * losses[0]
assert not jnp.allclose(mean, mean0)  # apply returned new batch_stats ...
assert jnp.all(variables["batch_stats"]["BatchNorm_0"]["mean"] == 0)  # ... the old dict is untouched
