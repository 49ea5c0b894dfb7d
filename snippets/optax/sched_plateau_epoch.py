"""ReduceLROnPlateau once per epoch in optax: reduce_on_plateau outside the optimizer, fed the validation loss."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
import torch

lr, steps_per_epoch = 0.1, 10
val_losses = [1.0, 0.8, 0.8, 0.8, 0.8, 0.8]  # the validation loss after each epoch: flat after epoch 1
params = {"w": jnp.zeros(2)}
grads = {"w": jnp.array([1.0, -2.0])}  # stands in for the gradient of a batch

# The trap: chained into the optimizer, it needs value= at every update and counts each as one value.
chained = optax.chain(optax.sgd(lr), optax.contrib.reduce_on_plateau(factor=0.5, patience=3))
state = chained.init(params)
try:
    chained.update(grads, state, params)
except TypeError as e:
    print("TypeError:", e)
else:
    raise AssertionError("expected a TypeError")
for val_loss in val_losses[:2]:
    for _ in range(steps_per_epoch):  # the last validation loss, passed to every update
        _, state = chained.update(grads, state, params, value=jnp.asarray(val_loss))
    print(f"chained: scale {float(state[1].scale)} after this epoch")
assert float(state[1].scale) == 0.5 ** 6  # cut every 3 updates: patience counted steps

# The fix: the optimizer's rate in its state, and one plateau update per epoch.
tx = optax.inject_hyperparams(optax.sgd)(learning_rate=lr)
plateau = optax.contrib.reduce_on_plateau(factor=0.5, patience=3)  # PyTorch's patience=2
opt_state, plateau_state = tx.init(params), plateau.init(params)
step = jax.jit(tx.update)
rates = []
for val_loss in val_losses:
    for _ in range(steps_per_epoch):
        updates, opt_state = step(grads, opt_state)
        rates.append(float(-updates["w"][0]))  # the rate this step used (gradient 1)
    # After evaluating: one plateau update (it scales the tree it gets, here unused).
    _, plateau_state = plateau.update(params, plateau_state, value=val_loss)
    opt_state.hyperparams["learning_rate"] = lr * plateau_state.scale

# PyTorch: scheduler.step(val_loss) once per epoch.
opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=lr)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=2)
torch_rates = []
for val_loss in val_losses:
    for _ in range(steps_per_epoch):
        opt.step()
        torch_rates.append(opt.param_groups[0]["lr"])
    sched.step(val_loss)
print("optax rate per epoch:", [round(r, 6) for r in rates[::steps_per_epoch]])
print("torch rate per epoch:", [round(r, 6) for r in torch_rates[::steps_per_epoch]])
assert np.allclose(rates, torch_rates, rtol=1e-6)
assert len(set(rates[:5 * steps_per_epoch])) == 1 and np.isclose(rates[-1], lr / 2)  # cut after 3 flat epochs
