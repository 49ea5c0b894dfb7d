"""optax.MultiSteps: zero updates for 3 micro-batches, one Adam step on their mean at the 4th."""
import jax
import jax.numpy as jnp
import numpy as np
import optax

rng = np.random.default_rng(0)
x = jnp.asarray(rng.normal(size=(32, 3)).astype(np.float32))  # one large batch of 32
y = x @ jnp.array([1.0, -2.0, 0.5])
params = {"w": jnp.asarray(rng.normal(size=3).astype(np.float32))}
k = 4  # micro-batches of 8 per optimizer step


def loss_fn(p, xb, yb):
    return jnp.mean((xb @ p["w"] - yb) ** 2)


def make_step(tx):
    @jax.jit
    def step(p, state, xb, yb):
        updates, state = tx.update(jax.grad(loss_fn)(p, xb, yb), state, p)
        return optax.apply_updates(p, updates), state, optax.tree.norm(updates)
    return step


tx = optax.MultiSteps(optax.adam(0.1), every_k_schedule=k)
step, p, state = make_step(tx), params, tx.init(params)
for i, (xb, yb) in enumerate(zip(jnp.split(x, k) * 2, jnp.split(y, k) * 2)):  # 2 passes
    p, state, size = step(p, state, xb, yb)
    adam_count = state.inner_opt_state[0].count
    print(f"micro-batch {i}: |update| = {size:.3f}  mini_step = {state.mini_step}"
          f"  gradient_step = {state.gradient_step}  Adam count = {adam_count}")
    assert (size > 0) == ((i + 1) % k == 0) and adam_count == state.gradient_step == (i + 1) // k

adam = optax.adam(0.1)
big_step, big, big_state = make_step(adam), params, adam.init(params)
for _ in range(2):  # 2 Adam steps on the whole batch
    big, big_state, _ = big_step(big, big_state, x, y)
diff = float(jnp.abs(p["w"] - big["w"]).max())
print("accumulated:", p["w"])
print("large batch:", big["w"])
print(f"max difference: {diff:.1e} (tolerance 1e-6)")
assert diff < 1e-6
