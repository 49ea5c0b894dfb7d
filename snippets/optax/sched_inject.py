"""inject_hyperparams keeps the learning rate in opt_state, where you can read it and halve it by hand."""
import jax
import jax.numpy as jnp
import optax

grads = {"w": jnp.array([1.0, -2.0])}
params = {"w": jnp.zeros(2)}
tx = optax.inject_hyperparams(optax.sgd)(learning_rate=0.1)
traces = []


def fmt(u):
    return "[" + ", ".join(f"{v:+.4f}" for v in u["w"].tolist()) + "]"


@jax.jit
def update(grads, opt_state):
    traces.append(1)  # runs only when jit traces the function
    return tx.update(grads, opt_state)


opt_state = tx.init(params)
print(type(opt_state).__name__, "hyperparams:", opt_state.hyperparams)
before, opt_state = update(grads, opt_state)

# A plateau: halve the rate in the state (a dict of arrays) before the next update.
opt_state.hyperparams["learning_rate"] = opt_state.hyperparams["learning_rate"] / 2
after, opt_state = update(grads, opt_state)
print(f"update before: {fmt(before)}, after halving: {fmt(after)}")
print(f"jit traced update {len(traces)} time(s)")
assert jnp.allclose(after["w"], before["w"] / 2, rtol=1e-6)
assert len(traces) == 1  # the rate is an array argument, not a constant baked into the compiled step

# With a schedule, hyperparams holds the rate the last update used, and writing to it does nothing.
schedule = optax.exponential_decay(init_value=0.1, transition_steps=1, decay_rate=0.5)
tx = optax.inject_hyperparams(optax.sgd)(learning_rate=schedule)
opt_state = tx.init(params)
for k in range(3):
    updates, opt_state = tx.update(grads, opt_state)
    used = float(opt_state.hyperparams["learning_rate"])
    print(f"update {k}: learning_rate in state {used:.4f}, schedule({k}) {float(schedule(k)):.4f}")
    assert jnp.isclose(used, schedule(k))
opt_state.hyperparams["learning_rate"] = jnp.asarray(1.0)  # ignored: the schedule is called again
updates, opt_state = tx.update(grads, opt_state)
print(f"after writing 1.0: update {fmt(updates)}, the step of schedule(3)")
assert jnp.allclose(updates["w"], -schedule(3) * grads["w"])
