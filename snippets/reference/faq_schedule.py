"""A learning-rate schedule in optax is a function of the step, passed where a float would go."""
import jax.numpy as jnp
import numpy as np
import optax
import torch

# PyTorch: a scheduler object that changes the optimizer's lr each time you call .step().
p = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([p], lr=0.1)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10, eta_min=0.001)
torch_lrs = []
for _ in range(16):
    torch_lrs.append(sched.get_last_lr()[0])
    opt.step()
    sched.step()

# optax: the same curve as a plain function of the step count.
schedule = optax.cosine_decay_schedule(init_value=0.1, decay_steps=10, alpha=0.01)
optax_lrs = [float(schedule(step)) for step in range(16)]
print("step  torch     optax")
for step in (0, 5, 10, 15):
    print(f"{step:4d}  {torch_lrs[step]:.5f}  {optax_lrs[step]:.5f}")
assert np.allclose(torch_lrs[:11], optax_lrs[:11], rtol=1e-5)
# After T_max, CosineAnnealingLR climbs again; the optax schedule stays at its end value.
assert torch_lrs[15] > 10 * optax_lrs[15] and optax_lrs[15] == optax_lrs[10]

# Pass the schedule as the learning rate; inject_hyperparams exposes the value it used.
tx = optax.inject_hyperparams(optax.adam)(learning_rate=schedule)
params = {"w": jnp.zeros(3)}
opt_state = tx.init(params)
for step in range(3):
    grads = {"w": jnp.ones(3)}  # a constant gradient: Adam's first steps move by exactly lr
    updates, opt_state = tx.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    lr = float(opt_state.hyperparams["learning_rate"])
    print(f"update {step}: lr {lr:.5f}, step size {float(-updates['w'][0]):.5f}")
    # rtol 1e-5 holds on a CPU; a TPU v5e (jax 0.10.2, 2026-12-06) put update 1 at 0.09761 for lr 0.09758:
    # Adam's float32 arithmetic there is less exact, 3e-4 apart, so the check allows 1e-3.
    assert np.isclose(lr, optax_lrs[step]) and np.isclose(-updates["w"][0], lr, rtol=1e-3)
