"""PyTorch per-example gradients: torch.func.vmap(torch.func.grad(loss), in_dims=(None, 0, 0))."""
import numpy as np
import torch
from torch.func import grad, vmap

rng = np.random.default_rng(0)  # numpy gives both tabs the same float32 data
xs = torch.from_numpy(rng.normal(size=(8, 3)).astype(np.float32))
ys = torch.from_numpy(rng.normal(size=8).astype(np.float32))
w = torch.from_numpy(rng.normal(size=3).astype(np.float32))


def loss(w, x, y):  # written for ONE example: x has shape (3,), y is a scalar
    return (torch.tanh(x @ w) - y) ** 2


per_example = vmap(grad(loss), in_dims=(None, 0, 0))(w, xs, ys)  # w shared, x and y batched
print("per-example gradients:", tuple(per_example.shape))
print("example 0:", per_example[0].numpy())

leaf = w.clone().requires_grad_(True)
((torch.tanh(xs @ leaf) - ys) ** 2).mean().backward()  # the usual batch gradient
print("mean over examples:", per_example.mean(dim=0).numpy(), " batch:", leaf.grad.numpy())
assert per_example.shape == (8, 3)
assert torch.allclose(per_example.mean(dim=0), leaf.grad, atol=1e-6)
assert torch.allclose(per_example[5], grad(loss)(w, xs[5], ys[5]), atol=1e-6)
