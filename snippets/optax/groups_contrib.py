"""optax.contrib optimizers fit into optax.partition; schedule-free ones need their own parameters for evaluation."""
import jax
import jax.numpy as jnp
import optax
from flax import nnx

params = {"backbone": jnp.ones(3), "head": jnp.ones(2)}
grads = {"backbone": jnp.full(3, 0.5), "head": jnp.full(2, -0.5)}
for name in ["prodigy", "schedule_free_adamw"]:
    opt = getattr(optax.contrib, name)()  # both have default learning rates
    tx = optax.partition({"contrib": opt, "adam": optax.adam(1e-2)}, {"backbone": "adam", "head": "contrib"})
    updates, state = tx.update(grads, tx.init(params), params)
    inner = state.inner_states["contrib"].inner_state
    print(f"optax.contrib.{name}: head update {updates['head']}, state {type(inner).__name__}")
    assert bool(jnp.all(updates["head"] > 0)) and bool(jnp.all(updates["backbone"] < 0))
# The last state is schedule_free_adamw's: inside the partition, with placeholders for the backbone.
assert isinstance(inner, optax.contrib.ScheduleFreeState) and isinstance(inner.z["backbone"], optax.MaskedNode)
try:  # the evaluation parameters need the ScheduleFreeState itself, not the partition around it
    optax.contrib.schedule_free_eval_params(state, params)
except AttributeError as e:
    print("AttributeError:", e)
else:
    raise AssertionError("expected an AttributeError")

# Groups and schedule-free: wrap the partition, with base optimizers that have no momentum (b1=0).
tx = optax.contrib.schedule_free(optax.partition(
    {"backbone": optax.adam(1e-3, b1=0.0), "head": optax.adam(1e-2, b1=0.0)},
    {"backbone": "backbone", "head": "head"}), learning_rate=1e-2)
p, state = params, tx.init(params)
for _ in range(5):
    updates, state = tx.update(grads, state, p)
    p = optax.apply_updates(p, updates)
eval_params = optax.contrib.schedule_free_eval_params(state, p)  # evaluate the model here, not at p
print("trained head:", p["head"], "| head for evaluation:", eval_params["head"])
assert not jnp.allclose(eval_params["head"], p["head"], rtol=1e-4)

# With nnx.Optimizer: pass both as plain arrays, and load the result into a copy of the model.
model, x = nnx.Linear(3, 1, rngs=nnx.Rngs(0)), jnp.ones((4, 3))
optimizer = nnx.Optimizer(model, optax.contrib.schedule_free_adamw(0.1), wrt=nnx.Param)
for _ in range(5):
    optimizer.update(model, nnx.grad(lambda m: jnp.mean((m(x) - 1.0) ** 2))(model))
eval_model = nnx.clone(model)
nnx.update(eval_model, optax.contrib.schedule_free_eval_params(
    nnx.as_pure(optimizer.opt_state), nnx.as_pure(nnx.state(model, nnx.Param))))
print(f"nnx: output {float(model(x)[0, 0]):.4f} trained, {float(eval_model(x)[0, 0]):.4f} for evaluation")
assert not jnp.allclose(eval_model(x), model(x), rtol=1e-4)
