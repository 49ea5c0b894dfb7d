"""CosineAnnealingWarmRestarts as optax.sgdr_schedule (T_mult=1) and join_schedules (T_mult=2)."""
import numpy as np
import optax
import torch

lr, T_0 = 0.1, 5


def torch_lrs(T_mult, steps):
    opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=T_0, T_mult=T_mult)
    lrs = []
    for _ in range(steps):
        lrs.append(opt.param_groups[0]["lr"])  # the lr this step uses
        opt.step()
        sched.step()
    return np.array(lrs)


# T_mult=1: three equal cycles of T_0 steps, each a cosine from lr down towards 0.
sgdr = optax.sgdr_schedule([dict(init_value=lr, peak_value=lr, warmup_steps=0,
                                 decay_steps=T_0, end_value=0.0)] * 3)
# T_mult=2: cycles of 5, 10 and 20 steps, joined at the steps where each one starts.
lengths = [T_0, 2 * T_0, 4 * T_0]
joined = optax.join_schedules([optax.cosine_decay_schedule(lr, n) for n in lengths],
                              boundaries=list(np.cumsum(lengths)[:-1]))

for T_mult, schedule, steps in ((1, sgdr, 15), (2, joined, 35)):
    want = torch_lrs(T_mult, steps)
    got = np.array([float(schedule(t)) for t in range(steps)])  # optax counts steps from 0
    restarts = [t for t in range(1, steps) if want[t] > want[t - 1]]
    print(f"T_mult={T_mult}: restarts at steps {restarts}, "
          f"max |torch lr - optax lr| = {np.abs(want - got).max():.1e}")
    assert np.allclose(got, want, rtol=1e-6, atol=1e-8)
    assert restarts == ([5, 10] if T_mult == 1 else [5, 15])
print("first cycle, T_mult=1:", np.round(torch_lrs(1, T_0), 4).tolist())
