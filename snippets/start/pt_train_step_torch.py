"""A whole PyTorch training step: parameters, .grad and Adam state live inside objects."""
import numpy as np
import torch
from torch import nn

torch.manual_seed(0)
# numpy is only a neutral source, so both frameworks can get identical arrays.
rng = np.random.default_rng(0)
x = rng.normal(size=(32, 4)).astype(np.float32)
y = np.sin(x.sum(axis=1, keepdims=True))
x, y = torch.from_numpy(x), torch.from_numpy(y)

model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))  # 1. model init
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)  # 2. optimizer init


def train_step(x, y):
    optimizer.zero_grad()  # drop the .grad left over from the previous step
    pred = model(x)  # 3. forward
    loss = nn.functional.mse_loss(pred, y)  # 4. loss
    loss.backward()  # 5. backward: adds into p.grad of every parameter
    optimizer.step()  # 6. step: changes every p in place
    return loss.item()  # nothing else comes back: the new state is in the objects


losses = [train_step(x, y) for _ in range(20)]
print(f"loss after step 1: {losses[0]:.4f}, after step 20: {losses[-1]:.4f}")
assert losses[-1] < losses[0]
