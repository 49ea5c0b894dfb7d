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
# 0.795 improves on 0.8 by less than the 1 % threshold; 0.7 improves after two cuts.
losses = [1.0, 0.8, 0.795] + [0.8] * 7 + [0.7] * 5
lr = 0.1
opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=lr)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(
    opt, factor=0.5, patience=2, threshold=0.01, cooldown=1, min_lr=0.02)
torch_factor = []
for loss in losses:
    opt.step()
    plateau.step(loss)
    torch_factor.append(round(opt.param_groups[0]["lr"] / lr, 6))  # the rate after this loss, over lr

# patience + 1; threshold -> rtol; the same cooldown; min_lr -> min_scale = min_lr / lr.
tx = optax.chain(optax.sgd(lr), optax.contrib.reduce_on_plateau(
    factor=0.5, patience=3, rtol=0.01, cooldown=1, min_scale=0.02 / lr))
opt_state = tx.init(params)
optax_factor, optax_steps = [], []
for loss in losses:
    updates, opt_state = tx.update(grads, opt_state, params, value=jnp.asarray(loss))
    optax_factor.append(round(float(opt_state[1].scale), 6))
    optax_steps.append(-float(updates["w"][0]))
print("torch patience=2:", torch_factor)
print("optax patience=3:", optax_factor)
cuts = [i for i in range(1, len(losses)) if optax_factor[i] < optax_factor[i - 1]]
print("cut after the losses at positions", cuts)
assert torch_factor == optax_factor and cuts == [4, 8, 13] and optax_factor[-1] == 0.2
assert np.allclose(optax_steps, lr * np.array(optax_factor), rtol=1e-6)  # already this update
