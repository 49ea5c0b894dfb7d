"""A learning-rate schedule is an argument in optax: ExponentialLR vs optax.exponential_decay."""
import jax.numpy as jnp
import numpy as np
import optax
import torch

grads = np.ones((4, 2), np.float32)  # gradient 1 each step: the step size is the learning rate

# PyTorch: a scheduler object changes the optimizer's lr after each step.
w = torch.nn.Parameter(torch.zeros(2))
opt = torch.optim.SGD([w], lr=0.1)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
torch_lrs = []
for g in grads:
    torch_lrs.append(opt.param_groups[0]["lr"])
    w.grad = torch.from_numpy(g.copy())
    opt.step()
    sched.step()

# optax: pass a function of the step count where the number would go.
schedule = optax.exponential_decay(init_value=0.1, transition_steps=1, decay_rate=0.5)
tx = optax.sgd(learning_rate=schedule)
params = jnp.zeros(2)
state = tx.init(params)
optax_lrs = []
for g in grads:
    updates, state = tx.update(jnp.asarray(g), state)
    optax_lrs.append(-float(updates[0]))  # the step taken, since the gradient is 1
    params = optax.apply_updates(params, updates)

print("torch lr per step:", torch_lrs)
print("optax step sizes :", np.round(optax_lrs, 6).tolist())
assert np.allclose(optax_lrs, torch_lrs, rtol=1e-6)
assert np.allclose(np.asarray(params), w.detach().numpy(), rtol=1e-6)
