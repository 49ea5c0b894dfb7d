"""PyTorch: torch.autograd.grad(y, x, grad_outputs=v) is a vector-Jacobian product v^T J."""
import numpy as np
import torch

rng = np.random.default_rng(0)  # numpy gives both tabs the same float32 data
W = rng.normal(size=(3, 4)).astype(np.float32)
x0 = rng.normal(size=4).astype(np.float32)
v = rng.normal(size=3).astype(np.float32)  # one weight per output


def f(x):
    return torch.tanh(torch.from_numpy(W) @ x)  # 4 inputs -> 3 outputs


x = torch.from_numpy(x0).requires_grad_(True)
y = f(x)
(vjp_grad,) = torch.autograd.grad(y, x, grad_outputs=torch.from_numpy(v))

y2, f_vjp = torch.func.vjp(f, torch.from_numpy(x0))  # the functional form, like jax.vjp
(vjp_func,) = f_vjp(torch.from_numpy(v))

exact = W.T.astype(np.float64) @ ((1 - np.tanh(W.astype(np.float64) @ x0) ** 2) * v)  # v^T J by hand
print("torch.autograd.grad:", vjp_grad.numpy())
print("torch.func.vjp:     ", vjp_func.numpy())
print("NumPy closed form:  ", exact.astype(np.float32))
assert np.allclose(vjp_grad.numpy(), exact, atol=1e-5)
assert np.allclose(vjp_func.numpy(), exact, atol=1e-5)
