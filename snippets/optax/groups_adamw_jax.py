"""JAX: optax.partition with labels from key paths, AdamW weight decay only on the kernels."""
import jax
import jax.numpy as jnp
import numpy as np
import optax

rng = np.random.default_rng(0)  # the same NumPy weights and data as the PyTorch tab
w1, w2 = rng.normal(size=(4, 8)).astype(np.float32), rng.normal(size=(8, 1)).astype(np.float32)
x, y = rng.normal(size=(16, 4)).astype(np.float32), rng.normal(size=(16, 1)).astype(np.float32)
params = {"hidden": {"kernel": jnp.asarray(w1), "bias": jnp.zeros(8)},
          "norm": {"scale": jnp.ones(8), "bias": jnp.zeros(8)},
          "out": {"kernel": jnp.asarray(w2), "bias": jnp.zeros(1)}}


def loss_fn(p, x, y):
    h = x @ p["hidden"]["kernel"] + p["hidden"]["bias"]
    h = (h - h.mean(-1, keepdims=True)) / jnp.sqrt(h.var(-1, keepdims=True) + 1e-5)  # LayerNorm
    h = jnp.tanh(h * p["norm"]["scale"] + p["norm"]["bias"])
    return jnp.mean((h @ p["out"]["kernel"] + p["out"]["bias"] - y) ** 2)


def label_fn(tree):  # one label per leaf, computed from its key path such as "norm/scale"
    def label(path, _):
        name = jax.tree_util.keystr(path, simple=True, separator="/")
        return "no_decay" if name.endswith("bias") or name.startswith("norm") else "decay"
    return jax.tree_util.tree_map_with_path(label, tree)


tx = optax.partition({"decay": optax.adamw(0.05, weight_decay=0.1),
                      "no_decay": optax.adamw(0.05, weight_decay=0.0)}, label_fn)
print(label_fn(params))


@jax.jit
def step(params, opt_state):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


opt_state = tx.init(params)
for _ in range(20):
    params, opt_state, loss = step(params, opt_state)
print(f"loss before the last step: {loss:.4f}")
print("norm scale after 20 steps:", np.asarray(params["norm"]["scale"]).round(4))
assert jax.tree.leaves(label_fn(params)).count("decay") == 2  # the two kernels, as in PyTorch
