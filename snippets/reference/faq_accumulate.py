"""Gradient accumulation with optax.MultiSteps: 4 micro-batches give one large-batch step."""
import jax
import jax.numpy as jnp
import numpy as np
import optax

kx, kw = jax.random.split(jax.random.key(0))
x = jax.random.normal(kx, (32, 3))  # one large batch of 32 examples
y = x @ jnp.array([1.0, -2.0, 0.5])


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] - y) ** 2)


params = {"w": jax.random.normal(kw, (3,))}
tx = optax.MultiSteps(optax.adam(0.1), every_k_schedule=4)  # update every 4 calls
opt_state = tx.init(params)

# The accumulator lives in the optimizer state: one array per parameter, of the same shape.
print("accumulator:", jax.tree.map(jnp.shape, opt_state.acc_grads))
assert jax.tree.map(jnp.shape, opt_state.acc_grads) == jax.tree.map(jnp.shape, params)

accumulated = params
for i, (xb, yb) in enumerate(zip(jnp.split(x, 4), jnp.split(y, 4))):  # 4 micro-batches of 8
    grads = jax.grad(loss_fn)(accumulated, xb, yb)
    updates, opt_state = tx.update(grads, opt_state, accumulated)
    accumulated = optax.apply_updates(accumulated, updates)
    changed = not np.allclose(accumulated["w"], params["w"])
    print(f"micro-batch {i}: params changed = {changed}, has_updated = {bool(tx.has_updated(opt_state))}")
    assert changed == bool(tx.has_updated(opt_state)) == (i == 3)

# One Adam step on the gradient of the whole batch gives the same parameters,
# because the mean of the 4 micro-batch gradients is the large-batch gradient.
adam = optax.adam(0.1)
updates, _ = adam.update(jax.grad(loss_fn)(params, x, y), adam.init(params), params)
large_batch = optax.apply_updates(params, updates)
print("accumulated:", accumulated["w"])
print("large batch:", large_batch["w"])
assert np.allclose(accumulated["w"], large_batch["w"], atol=1e-6)
