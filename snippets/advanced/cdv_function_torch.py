"""torch.autograd.Function: a tanh layer with its own forward, saved tensors and backward."""
import numpy as np
import torch


class LinearTanh(torch.autograd.Function):
    @staticmethod
    def forward(x, w):
        return torch.tanh(x @ w)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, w = inputs
        ctx.save_for_backward(x, w, output)  # the residuals backward needs

    @staticmethod
    def backward(ctx, g):
        x, w, out = ctx.saved_tensors
        gz = g * (1 - out**2)  # tanh' written with the saved output
        return gz @ w.T, x.T @ gz  # one gradient per input of forward


rng = np.random.default_rng(0)
x_np = rng.normal(size=(4, 3)).astype(np.float32)
w_np = rng.normal(size=(3, 2)).astype(np.float32)
x = torch.tensor(x_np, requires_grad=True)
w = torch.tensor(w_np, requires_grad=True)
LinearTanh.apply(x, w).sum().backward()
print("dL/dw from backward():\n", w.grad.numpy())

# The same gradients in closed form, in float64 NumPy.
gz = 1 - np.tanh(x_np.astype(np.float64) @ w_np) ** 2
assert np.allclose(x.grad.numpy(), gz @ w_np.T, atol=1e-5)
assert np.allclose(w.grad.numpy(), x_np.T @ gz, atol=1e-5)
