"""A schedule times a factor you cut by hand, and contrib.reduce_on_plateau next to ReduceLROnPlateau."""
import jax.numpy as jnp
import numpy as np
import optax
import torch

grads = {"w": jnp.array([1.0, -2.0])}
params = {"w": jnp.zeros(2)}

# Keep a schedule, and chain a scale whose factor lives in the state, to cut by hand.
schedule = optax.cosine_decay_schedule(init_value=0.1, decay_steps=100)
tx = optax.chain(optax.sgd(schedule), optax.inject_hyperparams(optax.scale)(step_size=1.0))
opt_state = tx.init(params)
updates, opt_state = tx.update(grads, opt_state)
opt_state[1].hyperparams["step_size"] = opt_state[1].hyperparams["step_size"] / 2  # a plateau
halved, opt_state = tx.update(grads, opt_state)
print(f"update 1: {float(halved['w'][0]):+.6f} = -0.5 * schedule(1) = {-0.5 * float(schedule(1)):+.6f}")
assert jnp.allclose(halved["w"], -0.5 * schedule(1) * grads["w"], rtol=1e-6)

# The same decision made from a loss: PyTorch's scheduler and optax's transformation.
losses = [1.0, 0.8] + [0.8] * 7  # no improvement after the second value
opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=2)
torch_factor = []
for loss in losses:
    opt.step()
    plateau.step(loss)
    torch_factor.append(opt.param_groups[0]["lr"])  # the rate after seeing this loss

tx = optax.chain(optax.sgd(1.0), optax.contrib.reduce_on_plateau(factor=0.5, patience=3))
opt_state = tx.init(params)
optax_factor, optax_steps = [], []
for loss in losses:
    updates, opt_state = tx.update(grads, opt_state, params, value=jnp.asarray(loss))
    optax_factor.append(float(opt_state[1].scale))
    optax_steps.append(-float(updates["w"][0]))
print("torch patience=2:", torch_factor)
print("optax patience=3:", optax_factor)
print("optax steps:      ", optax_steps)
assert torch_factor == optax_factor and min(optax_factor) == 0.25
assert optax_steps == optax_factor  # the new factor already scales the update that saw the loss
