"""PyTorch: loss.backward() writes w.grad; torch.func.grad returns the gradient as a value."""
import numpy as np
import torch

rng = np.random.default_rng(0)  # numpy gives both tabs the same float32 data
x = torch.from_numpy(rng.normal(size=(8, 3)).astype(np.float32))
w0 = torch.from_numpy(rng.normal(size=3).astype(np.float32))

# Tape style: mark the leaf, run forward, call backward, read .grad.
w = w0.clone().requires_grad_(True)
loss = torch.tanh(x @ w).sum()
returned = loss.backward()  # fills w.grad as a side effect
print("loss.backward() returns:", returned)
assert returned is None
print("w.grad:              ", w.grad.numpy())


# Functional style: a function in, a gradient function out (like jax.grad).
def f(w):
    return torch.tanh(x @ w).sum()


g = torch.func.grad(f)(w0)
print("torch.func.grad(f)(w):", g.numpy())

exact = x.T @ (1 - torch.tanh(x @ w0) ** 2)  # d/dw sum(tanh(x @ w)), by hand
assert torch.allclose(w.grad, g, atol=1e-6)
assert torch.allclose(g, exact, atol=1e-5)
