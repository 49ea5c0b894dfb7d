"""PyTorch model and optimizer init: both objects hold state, and Adam fills its own lazily."""
import torch
from torch import nn

torch.manual_seed(0)  # the global generator decides the initial weights
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

for name, p in model.named_parameters():
    print(name, tuple(p.shape))
entries_before = len(optimizer.state)
print("optimizer.state entries before the first step:", entries_before)

# One step creates the Adam moments inside the optimizer, keyed by parameter tensor.
model(torch.ones(2, 4)).sum().backward()
optimizer.step()
print("state of 0.weight:", sorted(optimizer.state[model[0].weight]))

assert model[0].weight.shape == (8, 4)  # torch stores Linear weights as (out, in)
assert entries_before == 0  # Adam creates its moments on the first step()
assert len(optimizer.state) == 4  # then one entry per parameter tensor
