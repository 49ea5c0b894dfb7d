"""The canonical JAX train step: value_and_grad with has_aux, the optax update in the same jit, donated state."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax

# Fixed data and initial weights from NumPy, shared with the PyTorch tab.
rng = np.random.default_rng(0)
x = rng.normal(size=(512, 32)).astype(np.float32)
y = np.argmax(x @ rng.normal(size=(32, 4)) + rng.normal(size=(512, 4)), axis=1)  # 4 noisy classes
params = {"w1": rng.normal(size=(32, 128)).astype(np.float32) / np.sqrt(32), "b1": np.zeros(128, np.float32),
          "w2": rng.normal(size=(128, 4)).astype(np.float32) / np.sqrt(128), "b2": np.zeros(4, np.float32)}
params = jax.tree.map(jnp.asarray, params)
tx = optax.adam(1e-2)
opt_state = tx.init(params)


def loss_fn(params, x, y):
    logits = jax.nn.relu(x @ params["w1"] + params["b1"]) @ params["w2"] + params["b2"]
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()
    return loss, {"accuracy": jnp.mean(jnp.argmax(logits, axis=1) == y)}  # aux: metrics


@functools.partial(jax.jit, donate_argnums=(0, 1))  # params and opt_state are replaced
def train_step(params, opt_state, x, y):
    (loss, metrics), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, x, y)
    updates, opt_state = tx.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return params, opt_state, {"loss": loss, **metrics}


old_params = params
history = []
for step in range(30):
    params, opt_state, metrics = train_step(params, opt_state, x, y)  # rebind: the old are gone
    history.append(jax.device_get(metrics))  # one transfer per step; fine at this size
for step in (0, 9, 19, 29):
    print(f"step {step:>2}: loss {history[step]['loss']:.4f}, accuracy {history[step]['accuracy']:.3f}")
print("first params deleted by donation:", old_params["w1"].is_deleted())
assert history[-1]["loss"] < 0.5 * history[0]["loss"] and history[-1]["accuracy"] > 0.8
assert old_params["w1"].is_deleted()
