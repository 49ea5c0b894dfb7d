"""CosineAnnealingLR and cosine_decay_schedule apply the same rate at every SGD step."""
import warnings
import jax.numpy as jnp
import numpy as np
import optax
import torch

N, LR, ETA_MIN = 20, 0.1, 0.001


def torch_steps(scheduler_first=False):
    """The step SGD takes at each of N steps, with a gradient of 1 (float64, to read it exactly)."""
    p = torch.nn.Parameter(torch.zeros(1, dtype=torch.float64))
    opt = torch.optim.SGD([p], lr=LR)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=N, eta_min=ETA_MIN)
    steps = []
    for _ in range(N):
        opt.zero_grad()
        p.sum().backward()  # gradient 1, so the step is the learning rate
        before = p.item()
        if scheduler_first:
            scheduler.step()
        opt.step()
        if not scheduler_first:
            scheduler.step()  # the documented order: after optimizer.step()
        steps.append(before - p.item())
    return np.array(steps)


schedule = optax.cosine_decay_schedule(LR, decay_steps=N, alpha=ETA_MIN / LR)
tx = optax.sgd(learning_rate=schedule)
params = {"w": jnp.zeros(1)}
opt_state = tx.init(params)
optax_steps = []
for _ in range(N):
    updates, opt_state = tx.update({"w": jnp.ones(1)}, opt_state)
    optax_steps.append(-float(updates["w"][0]))
optax_steps = np.array(optax_steps)

t = torch_steps()
tol = 1e-7  # absolute: a millionth of the peak rate; optax works in float32
print(f"step 0: torch {t[0]:.6f}, optax {optax_steps[0]:.6f}; step {N - 1}: torch {t[-1]:.6f}, optax {optax_steps[-1]:.6f}")
print(f"max |torch - optax| over {N} steps: {np.abs(t - optax_steps).max():.1e} (tolerance {tol:.0e})")
assert np.abs(t - optax_steps).max() < tol  # no shift: step k uses the rate at k in both
# Neither applies eta_min within N steps: it is the rate of step N, the (N+1)-th update.
print(f"rate at step {N}: {float(schedule(N)):.6f}")
assert t[-1] > 1.5 * ETA_MIN and np.isclose(schedule(N), ETA_MIN)

# The wrong order: PyTorch warns, and every step uses the rate of the next one.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    shifted = torch_steps(scheduler_first=True)
print("PyTorch warns:", str(caught[0].message).split(". ")[0] + ".")
print(f"scheduler.step() first: step 0 uses {shifted[0]:.6f}, the rate of step 1 ({optax_steps[1]:.6f})")
assert any("optimizer.step()" in str(w.message) for w in caught)
assert np.abs(shifted[:-1] - optax_steps[1:]).max() < tol
