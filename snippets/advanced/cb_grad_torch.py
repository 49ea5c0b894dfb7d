"""PyTorch: torch.library.custom_op wraps SciPy, with a fake (shape) rule and an autograd rule."""
import numpy as np
import scipy.special
import torch

OP = "kb_cb_grad_torch::log_gamma"  # a name unique to this snippet: the registry is global


def log_gamma_impl(x: torch.Tensor) -> torch.Tensor:
    return torch.from_numpy(scipy.special.gammaln(x.detach().numpy()))  # opaque to autograd


if not hasattr(torch.ops.kb_cb_grad_torch, "log_gamma"):  # register once per process
    log_gamma = torch.library.custom_op(OP, mutates_args=())(log_gamma_impl)
    log_gamma.register_fake(lambda x: torch.empty_like(x))  # like jax.ShapeDtypeStruct
    log_gamma.register_autograd(  # like jax.custom_vjp: forward saves, backward multiplies
        lambda ctx, grad: grad * torch.from_numpy(scipy.special.digamma(ctx.x.detach().numpy())),
        setup_context=lambda ctx, inputs, output: setattr(ctx, "x", inputs[0]))

x = torch.tensor([0.5, 2.0, 4.5], requires_grad=True)
compiled = torch.compile(lambda v: torch.ops.kb_cb_grad_torch.log_gamma(v).sum(),
                         backend="eager", fullgraph=True)  # fullgraph: no graph break allowed
compiled(x).backward()
analytic = torch.special.digamma(x.detach())
print("grad via the custom op:", x.grad)
print("torch.special.digamma: ", analytic)
assert torch.allclose(x.grad, analytic, rtol=1e-5)
assert np.allclose(x.grad.numpy(), scipy.special.digamma(np.float64([0.5, 2.0, 4.5])), rtol=1e-5)
