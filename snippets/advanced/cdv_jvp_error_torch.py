"""PyTorch: forward mode needs a jvp staticmethod, and vmap needs a vmap rule."""
import warnings

import numpy as np
import torch


class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return torch.nn.functional.softplus(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * torch.sigmoid(x)


# Forward mode loads decompositions that call the deprecated torch.jit.script (torch 2.13):
# import them once with that one warning silenced, so it does not reach stderr.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import torch._decomp.decompositions_for_jvp  # noqa: F401

x = torch.tensor([0.5])
errors = {}
for name, run in [("torch.func.jvp", lambda: torch.func.jvp(Softplus.apply, (x,), (torch.ones(1),))),
                  ("torch.func.vmap", lambda: torch.func.vmap(Softplus.apply)(x))]:
    try:
        run()
    except (NotImplementedError, RuntimeError) as err:
        errors[name] = err
        print(f"{name}: {type(err).__name__}: {err}")
assert "You must implement the jvp function" in str(errors["torch.func.jvp"])
assert "does not have vmap support" in str(errors["torch.func.vmap"])

second = torch.func.jacrev(torch.func.jacrev(Softplus.apply))(x)  # reverse over reverse
s = 1 / (1 + np.exp(-0.5))
print("jacrev(jacrev(softplus))(0.5) =", second.item(), " closed form s(1-s) =", s * (1 - s))
assert np.isclose(second.item(), s * (1 - s), atol=1e-6)
