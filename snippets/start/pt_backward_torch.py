"""PyTorch backward: loss.backward() adds into p.grad, which is why zero_grad() exists."""
import numpy as np
import torch
from torch import nn

torch.manual_seed(0)
rng = np.random.default_rng(0)
x = rng.normal(size=(32, 4)).astype(np.float32)
y = np.sin(x.sum(axis=1, keepdims=True))
x, y = torch.from_numpy(x), torch.from_numpy(y)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
w = model[0].weight

returned = nn.functional.mse_loss(model(x), y).backward()  # 5. backward: fills w.grad
first = w.grad.clone()
nn.functional.mse_loss(model(x), y).backward()  # no zero_grad() in between
print("w.grad shape:", tuple(w.grad.shape))
print("second backward / first backward:", (w.grad / first).mean().item())

assert returned is None  # backward() returns nothing: its result is in .grad
assert torch.allclose(w.grad, 2 * first)  # the second gradient was added, not stored
model.zero_grad()  # default set_to_none=True: the next backward starts fresh
assert w.grad is None
