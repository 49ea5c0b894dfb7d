"""The reference: a small MLP trained with Adam for 20 steps on one device."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")  # emulated CPU devices; only the CPU backend reads this
import jax
import jax.numpy as jnp
import optax

# The first 8, 4 or 2 accelerators (as many as there are); with fewer than 2, the 8 emulated CPU devices.
devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])
print(f"{len(devices)} devices: {devices[0].platform}")
jax.config.update("jax_default_device", devices[0])  # arrays made without a sharding go there too
jax.config.update("jax_default_matmul_precision", "highest")  # float32 products on every backend, for the checks

kx, kp = jax.random.split(jax.random.key(0))
x = jax.random.normal(kx, (64, 16))  # one batch: 64 examples, 16 features
y = jnp.sin(x.sum(axis=1, keepdims=True) / 4)


def init(key, sizes=(16, 64, 64, 1)):
    keys = jax.random.split(key, len(sizes) - 1)
    return [{"w": jax.random.normal(k, (m, n)) / jnp.sqrt(m), "b": jnp.zeros(n)}
            for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


def loss_fn(params, x, y):
    for layer in params[:-1]:
        x = jnp.tanh(x @ layer["w"] + layer["b"])
    return jnp.mean((x @ params[-1]["w"] + params[-1]["b"] - y) ** 2)


tx = optax.adam(1e-2)
traces = []  # one entry each time jax.jit traces step: its Python body runs only then


@jax.jit
def step(params, opt_state, x, y):
    traces.append(x.shape)
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def train(params, x, y, steps=20):
    opt_state = tx.init(params)  # Adam's moments copy the shapes and shardings of params
    losses = []
    for _ in range(steps):
        params, opt_state, loss = step(params, opt_state, x, y)
        losses.append(loss)
    return params, opt_state, jnp.stack(losses)


params = init(kp)
print("parameter shapes:", jax.tree.map(jnp.shape, params))
print("devices holding layer 1's kernel:", len(params[0]["w"].devices()))
new, opt_state, losses = train(params, x, y)
print("loss at steps 1, 10, 20:", [round(float(losses[i]), 6) for i in (0, 9, 19)])
assert len(params[0]["w"].devices()) == 1  # everything lives on one device
assert losses[-1] < 0.1 * losses[0]  # the model learns
print("times step was traced:", len(traces))
assert len(traces) == 1  # traced and compiled once, reused for all 20 steps
