"""flax.training.train_state.TrainState, common in Linen code, is one optax step in a dataclass."""
import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax.training import train_state


class CNN(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool):
        x = nn.Conv(features=16, kernel_size=(3, 3))(x)
        x = nn.BatchNorm(use_running_average=not train)(x)
        x = nn.max_pool(nn.relu(x), window_shape=(2, 2), strides=(2, 2))
        x = nn.Dropout(rate=0.5, deterministic=not train)(x.reshape(x.shape[0], -1))
        return nn.Dense(features=10)(x)


class TrainState(train_state.TrainState):
    batch_stats: dict  # the extra field that Linen code adds for BatchNorm


model, tx = CNN(), optax.adam(1e-2)
x, y = jax.random.uniform(jax.random.key(1), (8, 8, 8, 1)), jnp.arange(8)
v = model.init(jax.random.key(0), x, train=False)
state = TrainState.create(apply_fn=model.apply, params=v["params"], tx=tx,
                          batch_stats=v["batch_stats"])


def loss_fn(params, batch_stats):
    logits, updates = state.apply_fn(
        {"params": params, "batch_stats": batch_stats}, x, train=True,
        mutable=["batch_stats"], rngs={"dropout": jax.random.key(2)})
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean(), updates


(loss, updates), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params, state.batch_stats)
new = state.apply_gradients(grads=grads, batch_stats=updates["batch_stats"])

# The same step written with optax directly, as on the rest of this site.
opt_updates, _ = tx.update(grads, tx.init(v["params"]), v["params"])
params = optax.apply_updates(v["params"], opt_updates)
same = jax.tree.all(jax.tree.map(jnp.array_equal, new.params, params))
print(f"loss {loss:.4f}; step {state.step} -> {new.step}; params equal to the optax step: {same}")
assert same and int(new.step) == 1 and int(state.step) == 0  # state itself is unchanged
assert new.batch_stats is updates["batch_stats"]
