"""PyTorch: the CNN training step with model.train(), zero_grad(), backward() and step()."""
import numpy as np
import torch
from torch import nn

torch.manual_seed(0)  # the initial weights
rng = np.random.default_rng(0)  # numpy gives both tabs the same small batch
x = torch.from_numpy(rng.random((16, 8, 8, 1), dtype=np.float32)).permute(0, 3, 1, 2)  # NCHW
y = torch.from_numpy(rng.integers(0, 10, size=16))

model = nn.Sequential(
    nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),   # (16, 32, 4, 4)
    nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),  # (16, 64, 2, 2)
    nn.Flatten(), nn.Linear(2 * 2 * 64, 10))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)


def train_step(x, y):
    optimizer.zero_grad()  # clear the .grad left by the previous step
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()  # write new .grad tensors
    optimizer.step()  # update the weights in place
    return loss.item()


model.train()  # Dropout and BatchNorm layers would switch to training behaviour
losses = [train_step(x, y) for _ in range(5)]
print("input", tuple(x.shape), "| conv1 weight", tuple(model[0].weight.shape))
print("loss per step:", np.round(losses, 4))
assert all(b < a for a, b in zip(losses, losses[1:]))  # each of the five Adam steps lowers the loss
