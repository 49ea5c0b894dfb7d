"""PyTorch: AdamW with linear warmup then cosine decay, driven by scheduler.step()."""
import numpy as np
import torch
from torch.optim import lr_scheduler

rng = np.random.default_rng(0)
x = torch.from_numpy(rng.normal(size=(64, 3)).astype(np.float32))
y = x @ torch.tensor([1.0, -2.0, 0.5]) + 0.3

model = torch.nn.Linear(3, 1)
torch.nn.init.zeros_(model.weight)  # start from zeros, like the JAX tab
torch.nn.init.zeros_(model.bias)
opt = torch.optim.AdamW(model.parameters(), lr=0.1, weight_decay=0.01)
# 10 warmup steps from 0.001 to 0.1, then 90 cosine steps down to 0.001: 100 steps in all.
warmup = lr_scheduler.LinearLR(opt, start_factor=0.01, total_iters=10)
cosine = lr_scheduler.CosineAnnealingLR(opt, T_max=90, eta_min=0.001)
scheduler = lr_scheduler.SequentialLR(opt, [warmup, cosine], milestones=[10])

used = []  # the learning rate each optimizer.step() used
for step in range(100):
    opt.zero_grad()
    loss = torch.mean((model(x).squeeze(-1) - y) ** 2)
    loss.backward()
    used.append(opt.param_groups[0]["lr"])
    opt.step()
    scheduler.step()  # changes opt.param_groups[0]["lr"] in place

for step in (0, 5, 10, 55, 99):
    print(f"step {step:3d}: lr {used[step]:.5f}")
print(f"final loss {loss.item():.5f}")
assert used[0] == 0.001 and np.isclose(used[10], 0.1) and max(used) == used[10]
