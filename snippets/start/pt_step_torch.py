"""PyTorch optimizer step: optimizer.step() overwrites the parameter tensors in place."""
import numpy as np
import torch
from torch import nn

torch.manual_seed(0)
rng = np.random.default_rng(0)
x = rng.normal(size=(32, 4)).astype(np.float32)
y = np.sin(x.sum(axis=1, keepdims=True))
x, y = torch.from_numpy(x), torch.from_numpy(y)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

w = model[0].weight
before = w.detach().clone()  # a copy is the only way to keep the old values
nn.functional.mse_loss(model(x), y).backward()
returned = optimizer.step()  # 6. step: returns None, changes w and the Adam state in place
print("largest change in 0.weight:", (w.detach() - before).abs().max().item())

assert returned is None
assert model[0].weight is w  # still the same tensor object ...
assert not torch.equal(w.detach(), before)  # ... holding new values
assert optimizer.state[w]["step"].item() == 1  # the step counter also lives inside
