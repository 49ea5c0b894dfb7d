"""JAX: tx.init and tx.update are pure functions; you hold params and opt_state."""
import jax
import jax.numpy as jnp
import numpy as np
import optax

# Fixed data, shared with the PyTorch tab: y = x @ [1, -2, 0.5] + 0.3 + noise.
rng = np.random.default_rng(0)
x = rng.normal(size=(64, 3)).astype(np.float32)
y = (x @ np.array([1.0, -2.0, 0.5], np.float32) + 0.3
     + 0.1 * rng.normal(size=64).astype(np.float32))


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


@jax.jit
def train_step(params, opt_state, x, y):
    grads = jax.grad(loss_fn)(params, x, y)  # a new pytree shaped like params
    updates, opt_state = tx.update(grads, opt_state, params)  # pure: returns new state
    params = optax.apply_updates(params, updates)  # params + updates
    return params, opt_state


params = {"w": jnp.zeros(3), "b": jnp.zeros(())}
tx = optax.sgd(learning_rate=0.1)  # knows nothing about params yet
opt_state = tx.init(params)
params0, state0 = params, opt_state

for step in range(50):
    params, opt_state = train_step(params, opt_state, x, y)

final = float(loss_fn(params, x, y))
print(f"loss after 50 steps: {final:.6f}")
print("w:", np.asarray(params["w"]).round(3), "b:", round(float(params["b"]), 3))
print("SGD opt_state:", opt_state)
print("tx:", type(tx).__name__, "with fields", tx._fields)
assert isinstance(tx, optax.GradientTransformation) and tx._fields == ("init", "update")
assert jnp.array_equal(params0["w"], jnp.zeros(3))  # the old params are untouched
assert final < 0.02  # close to the noise level 0.1**2 = 0.01
# Plain SGD keeps no state: no leaves at all, before or after training.
assert jax.tree.leaves(state0) == [] and jax.tree.leaves(opt_state) == []
