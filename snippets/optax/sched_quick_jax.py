"""optax: the same warmup + cosine schedule is a function of the step, passed as the learning rate."""
import jax
import jax.numpy as jnp
import numpy as np
import optax

rng = np.random.default_rng(0)
x = jnp.asarray(rng.normal(size=(64, 3)).astype(np.float32))
y = x @ jnp.array([1.0, -2.0, 0.5]) + 0.3

# 10 warmup steps from 0.001 to 0.1, then cosine down to 0.001; decay_steps counts the warmup too.
schedule = optax.warmup_cosine_decay_schedule(
    init_value=0.001, peak_value=0.1, warmup_steps=10, decay_steps=100, end_value=0.001)
tx = optax.adamw(learning_rate=schedule, weight_decay=0.01)  # the schedule goes where a float would


def loss_fn(params):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


@jax.jit
def train_step(params, opt_state):
    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = tx.update(grads, opt_state, params)  # reads and advances the count
    return optax.apply_updates(params, updates), opt_state, loss


params = {"w": jnp.zeros(3), "b": jnp.zeros(())}
opt_state = tx.init(params)
for step in range(100):
    params, opt_state, loss = train_step(params, opt_state)

for step in (0, 5, 10, 55, 99):
    print(f"step {step:3d}: lr {float(schedule(step)):.5f}")  # just call the function
print(f"final loss {float(loss):.5f}")
counts = [int(c) for _, c in optax.tree.get_all_with_path(opt_state, "count")]
print(f"step counts in opt_state: {counts}")
assert counts == [100, 100]  # Adam's count and the schedule's count: one per update
assert np.isclose(schedule(0), 0.001) and np.isclose(schedule(10), 0.1)
