"""PyTorch: torch.func.grad_and_value returns (gradient, value), in that order."""
import numpy as np
import torch

rng = np.random.default_rng(0)  # numpy gives both tabs the same float32 data
x = torch.from_numpy(rng.normal(size=(16, 3)).astype(np.float32))
y = torch.from_numpy(rng.normal(size=16).astype(np.float32))
w = torch.ones(3)
runs = []  # one entry each time the Python body runs


def loss(w, x, y):
    runs.append(1)
    return ((x @ w - y) ** 2).mean()


g, value = torch.func.grad_and_value(loss)(w, x, y)  # gradient first, value second
print("grad_and_value: loss", value.numpy(), "grad", g.numpy(), "| Python runs:", len(runs))
assert len(runs) == 1
assert value.shape == () and g.shape == w.shape  # the order is (gradient, value)

leaf = w.clone().requires_grad_(True)
tape_loss = loss(leaf, x, y)  # the tape style: the loss is there before backward()
tape_loss.backward()
assert torch.allclose(tape_loss, value) and torch.allclose(leaf.grad, g, atol=1e-6)
