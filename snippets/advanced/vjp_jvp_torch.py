"""PyTorch: torch.func.jvp pushes a tangent u forward and returns (f(x), J u)."""
import warnings

import numpy as np
import torch

rng = np.random.default_rng(0)  # numpy gives both tabs the same float32 data
W = rng.normal(size=(3, 4)).astype(np.float32)
x0 = rng.normal(size=4).astype(np.float32)
u = rng.normal(size=4).astype(np.float32)  # one direction in input space


def f(x):
    return torch.tanh(torch.from_numpy(W) @ x)


# torch 2.13 warns from its own internals here: forward mode calls the deprecated
# torch.jit.script once, and linearize's graph rewrite warns too. Record them; raise none.
# Runs in a fresh process: torch warns once per process, on forward mode's first run.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    y, jvp_torch = torch.func.jvp(f, (torch.from_numpy(x0),), (torch.from_numpy(u),))
    y_lin, f_lin = torch.func.linearize(f, torch.from_numpy(x0))  # like jax.linearize
    lin_torch = f_lin(torch.from_numpy(u))
fx_warned = any("get_attr Node" in str(w.message) for w in caught)
script_warned = any("torch.jit.script" in str(w.message) for w in caught)  # forward mode's first run

W64 = W.astype(np.float64)
exact = (1 - np.tanh(W64 @ x0) ** 2) * (W64 @ u)  # J u by hand
print("f(x):             ", y.numpy())
print("torch.func.jvp:   ", jvp_torch.numpy())
print("NumPy closed form:", exact.astype(np.float32))
print("torch.func.linearize, applied to u:", lin_torch.numpy(), "| it warned (torch.fx UserWarning):", fx_warned)
assert np.allclose(jvp_torch.numpy(), exact, atol=1e-5)
assert np.allclose(lin_torch.numpy(), exact, atol=1e-5) and fx_warned and script_warned
