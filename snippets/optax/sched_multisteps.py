"""Under optax.MultiSteps the schedule advances once per real update, not once per micro-batch."""
import jax.numpy as jnp
import optax

grads = {"w": jnp.ones(1)}
params = {"w": jnp.zeros(1)}
schedule = optax.exponential_decay(init_value=0.1, transition_steps=1, decay_rate=0.5)  # halves each step

tx = optax.MultiSteps(optax.sgd(schedule), every_k_schedule=4)  # one update per 4 micro-batches
opt_state = tx.init(params)
steps = []
for call in range(8):
    updates, opt_state = tx.update(grads, opt_state, params)
    steps.append(round(-float(updates["w"][0]), 4))
inner_count = int(opt_state.inner_opt_state[1].count)  # the count the schedule reads
print(f"steps of 8 calls: {steps}")
print(f"schedule count {inner_count}, MultiSteps gradient_step {int(opt_state.gradient_step)}")
# Zero updates in between; the 4th call uses schedule(0), the 8th schedule(1), not schedule(7).
assert steps == [0, 0, 0, 0.1, 0, 0, 0, 0.05] and inner_count == 2 == int(opt_state.gradient_step)
