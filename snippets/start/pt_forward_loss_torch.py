"""PyTorch forward and loss: the module reads its own weights and the output records a graph."""
import numpy as np
import torch
from torch import nn

torch.manual_seed(0)
rng = np.random.default_rng(0)
x = rng.normal(size=(32, 4)).astype(np.float32)
y = np.sin(x.sum(axis=1, keepdims=True))
x, y = torch.from_numpy(x), torch.from_numpy(y)

model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
pred = model(x)  # 3. forward: the weights are not arguments, they are read from model
loss = nn.functional.mse_loss(pred, y)  # 4. loss
print("loss:", loss.item(), "| grad_fn:", type(loss.grad_fn).__name__)

# The loss carries a link to the graph that loss.backward() will walk later.
assert loss.grad_fn is not None
assert all(p.grad is None for p in model.parameters())  # nothing computed yet
