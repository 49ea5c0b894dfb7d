"""Each torch.optim.lr_scheduler of the table next to its optax schedule, over 100 steps."""
import jax
import numpy as np
import optax
import torch
from torch.optim import lr_scheduler as L

# optax's piecewise-interpolate schedules (cosine_onecycle among them) pick their rate with a dot
# product, which a GPU or TPU would round at its default matmul precision: exact float32 here.
jax.config.update("jax_default_matmul_precision", "highest")
N, LR = 100, 0.1


def torch_lrs(make_scheduler):
    opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=LR)
    scheduler = make_scheduler(opt)
    lrs = []
    for _ in range(N):
        lrs.append(opt.param_groups[0]["lr"])  # the rate this optimizer.step() uses
        opt.step()
        scheduler.step()
    return np.array(lrs)


rows = {
    "StepLR": (lambda o: L.StepLR(o, step_size=30, gamma=0.1),
               optax.exponential_decay(LR, transition_steps=30, decay_rate=0.1, staircase=True)),
    "MultiStepLR": (lambda o: L.MultiStepLR(o, milestones=[30, 60], gamma=0.1),
                    optax.piecewise_constant_schedule(LR, {30: 0.1, 60: 0.1})),
    "CosineAnnealingLR": (lambda o: L.CosineAnnealingLR(o, T_max=N, eta_min=0.001),
                          optax.cosine_decay_schedule(LR, decay_steps=N, alpha=0.001 / LR)),
    "OneCycleLR": (lambda o: L.OneCycleLR(o, max_lr=LR, total_steps=N, cycle_momentum=False),
                   optax.cosine_onecycle_schedule(transition_steps=N - 1, peak_value=LR)),
    "LinearLR": (lambda o: L.LinearLR(o, start_factor=0.1, total_iters=10),
                 optax.linear_schedule(0.1 * LR, LR, transition_steps=10)),
    "ExponentialLR": (lambda o: L.ExponentialLR(o, gamma=0.95),
                      optax.exponential_decay(LR, transition_steps=1, decay_rate=0.95)),
    "SequentialLR": (lambda o: L.SequentialLR(o, [L.LinearLR(o, start_factor=0.01, total_iters=10),
                                                  L.CosineAnnealingLR(o, T_max=N - 10, eta_min=0.001)],
                                              milestones=[10]),
                     optax.join_schedules([optax.linear_schedule(0.01 * LR, LR, transition_steps=10),
                                           optax.cosine_decay_schedule(LR, N - 10, alpha=0.001 / LR)],
                                          boundaries=[10])),
}
# Absolute; optax computes in float32, PyTorch in Python floats (float64). Off the CPU, optax's
# decay_rate ** (step / transition_steps) uses the device's power function (2.4e-7 on a TPU v5e).
tol = (1e-6 if jax.default_backend() == "cpu" else 1e-5) * LR
for name, (make_scheduler, schedule) in rows.items():
    t = torch_lrs(make_scheduler)
    o = np.array([float(schedule(step)) for step in range(N)])
    diff = np.max(np.abs(t - o))
    print(f"{name:18s} max |PyTorch - optax| over {N} steps: {diff:.1e} (tolerance {tol:.0e})")
    assert diff < tol

# OneCycleLR needs N - 1: PyTorch reaches its last value at step total_steps - 1.
t = torch_lrs(rows["OneCycleLR"][0])
same_n = optax.cosine_onecycle_schedule(transition_steps=N, peak_value=LR)
print(f"OneCycleLR vs transition_steps={N}: last step {t[-1]:.1e} vs {float(same_n(N - 1)):.1e}")
assert float(same_n(N - 1)) > 100 * t[-1]

# By default OneCycleLR also cycles SGD's momentum (or Adam's beta1); the optax schedule does not.
opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=LR, momentum=0.9)
L.OneCycleLR(opt, max_lr=LR, total_steps=N)
print(f"SGD momentum 0.9, after OneCycleLR(...) with defaults: {opt.param_groups[0]['momentum']}")
assert opt.param_groups[0]["momentum"] == 0.95
adam = torch.optim.Adam([torch.nn.Parameter(torch.zeros(1))], lr=LR)
L.OneCycleLR(adam, max_lr=LR, total_steps=N)
assert adam.param_groups[0]["betas"][0] == 0.95  # for Adam, OneCycleLR sets (and cycles) beta1
