"""PyTorch: the same CNN trains in model.train() mode; BatchNorm updates its buffers in place."""
import numpy as np
import torch
from sklearn.datasets import load_digits
from torch import nn

torch.manual_seed(0)
digits = load_digits()  # ships with scikit-learn, no download
x = torch.tensor(digits.images[:64] / 16.0, dtype=torch.float32)[:, None]  # NCHW
y = torch.tensor(digits.target[:64])

model = nn.Sequential(
    nn.Conv2d(1, 16, kernel_size=3, padding=1),  # Flax's nn.Conv pads "SAME" by default
    nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
    nn.Dropout(0.5), nn.Linear(4 * 4 * 16, 10))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
running_mean = model[1].running_mean  # a buffer: state that is not a parameter

model.train()  # a mode stored in the modules: BatchNorm uses batch stats, Dropout is on
losses = []
for step in range(30):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)  # dropout draws from torch's global RNG
    loss.backward()
    optimizer.step()
    losses.append(loss.item())

print(f"loss at step 1: {losses[0]:.4f}, at step 30: {losses[-1]:.4f}")
print("running mean after training:", np.round(running_mean[:4].numpy(), 3))
assert losses[-1] < 0.5 * losses[0]
assert model[1].running_mean is running_mean and running_mean.abs().max() > 0  # in place

model.eval()  # running averages, no dropout: repeated calls agree
with torch.no_grad():
    assert torch.equal(model(x), model(x))
