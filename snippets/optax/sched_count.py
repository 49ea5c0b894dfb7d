"""The optimizer state holds a step count; update k scales the gradient by schedule(k), then counts."""
import jax.numpy as jnp
import optax

schedule = optax.exponential_decay(init_value=0.1, transition_steps=1, decay_rate=0.5)  # halves each step
tx = optax.sgd(learning_rate=schedule)
params = {"w": jnp.zeros(2)}
grads = {"w": jnp.array([1.0, -2.0])}  # the same gradient every step, so only the rate changes



def fmt(u):
    return "[" + ", ".join(f"{v:+.5f}" for v in u["w"].tolist()) + "]"


print("sgd(0.1) state:     ", optax.sgd(0.1).init(params))  # a constant rate needs no count
assert optax.sgd(0.1).init(params) == (optax.EmptyState(), optax.EmptyState())
opt_state = tx.init(params)
print("sgd(schedule) state:", opt_state)
for k in range(4):
    count = int(opt_state[1].count)  # the count this update will read
    updates, opt_state = tx.update(grads, opt_state)
    print(f"update {k}: count read {count}, lr {float(schedule(k)):.4f}, "
          f"update {fmt(updates)}, count now {int(opt_state[1].count)}")
    assert count == k and int(opt_state[1].count) == k + 1
    assert jnp.allclose(updates["w"], -schedule(k) * grads["w"], rtol=1e-6)

# The position in the schedule is part of opt_state: two updates from the same saved
# state take the same step, the one of step 4.
saved = opt_state
first, _ = tx.update(grads, saved)
again, _ = tx.update(grads, saved)
print("two updates from the saved state:", fmt(first), fmt(again))
assert jnp.array_equal(first["w"], again["w"])
assert jnp.allclose(first["w"], -schedule(4) * grads["w"], rtol=1e-6)
