"""JAX optimizer step: tx.update and optax.apply_updates return new values, old ones stay."""
import jax
import jax.numpy as jnp
import numpy as np
import optax

rng = np.random.default_rng(0)
x = rng.normal(size=(32, 4)).astype(np.float32)
y = np.sin(x.sum(axis=1, keepdims=True))


def dense(key, n_in, n_out):
    kw, kb = jax.random.split(key)
    s = 1 / np.sqrt(n_in)
    return {"kernel": jax.random.uniform(kw, (n_in, n_out), minval=-s, maxval=s),
            "bias": jax.random.uniform(kb, (n_out,), minval=-s, maxval=s)}


def loss_fn(params, x, y):
    h = jnp.tanh(x @ params["l1"]["kernel"] + params["l1"]["bias"])
    return jnp.mean((h @ params["l2"]["kernel"] + params["l2"]["bias"] - y) ** 2)


def step(params, opt_state):
    grads = jax.grad(loss_fn)(params, x, y)
    updates, opt_state = tx.update(grads, opt_state, params)  # 6a. Adam math only
    return optax.apply_updates(params, updates), opt_state, updates  # 6b. params + updates


k1, k2 = jax.random.split(jax.random.key(0))
params = {"l1": dense(k1, 4, 8), "l2": dense(k2, 8, 1)}
tx = optax.adam(1e-2)
opt_state = tx.init(params)

new_params, new_opt_state, updates = step(params, opt_state)
change = jnp.abs(new_params["l1"]["kernel"] - params["l1"]["kernel"]).max()
print("largest change in l1 kernel:", change)
print("count: old state", optax.tree.get(opt_state, "count"),
      "| new state", optax.tree.get(new_opt_state, "count"))

assert jnp.allclose(new_params["l1"]["kernel"], params["l1"]["kernel"] + updates["l1"]["kernel"])
# Adam itself ignores the params argument; adamw's weight decay needs it.
grads = jax.grad(loss_fn)(params, x, y)
without_params, _ = tx.update(grads, opt_state)
assert all(jax.tree.leaves(jax.tree.map(jnp.array_equal, without_params, updates)))
adamw = optax.adamw(1e-2)
try:
    adamw.update(grads, adamw.init(params))
except ValueError:
    needs_params = True
else:
    needs_params = False
print("adamw.update without params raises ValueError:", needs_params)
assert needs_params
# Nothing was overwritten, so the same inputs replay the same step exactly.
replay, _, _ = step(params, opt_state)
assert all(jax.tree.leaves(jax.tree.map(jnp.array_equal, replay, new_params)))
