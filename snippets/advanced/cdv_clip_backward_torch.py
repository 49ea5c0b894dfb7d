"""PyTorch: clip the gradient that flows through one tensor with a hook on that tensor."""
import numpy as np
import torch

x = torch.tensor([-2.0, -0.1, 0.1, 2.0], requires_grad=True)
h = x * 1.0  # an intermediate tensor; the hook clips the gradient arriving at it
h.register_hook(lambda g: g.clamp(-1.0, 1.0))
(3 * h**2).sum().backward()
print("clipped gradient:", x.grad.numpy())

# Unclipped, the gradient of 3 x^2 is 6 x; the hook bounds it to [-1, 1].
assert np.allclose(x.grad.numpy(), np.clip(6 * x.detach().numpy(), -1.0, 1.0))
