"""PyTorch: Hessian-vector product by forward-over-reverse, torch.func.jvp of torch.func.grad."""
import warnings

import numpy as np
import torch


def loss(w, X, y):  # logistic regression, labels y in {-1, +1}
    return torch.nn.functional.softplus(-y * (X @ w)).mean()


def hvp(w, v, X, y):
    return torch.func.jvp(lambda w: torch.func.grad(loss)(w, X, y), (w,), (v,))[1]


rng = np.random.default_rng(0)  # the same data as the small problem of the JAX tab
m, n = 16, 5
X = (rng.normal(size=(m, n)) / np.sqrt(n)).astype(np.float32)
y = np.where(rng.normal(size=m) > 0, 1.0, -1.0).astype(np.float32)
w, v = (rng.normal(size=n).astype(np.float32) for _ in range(2))

# torch 2.13 calls the deprecated torch.jit.script itself the first time forward mode runs;
# silence exactly that internal warning, in this block only.
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="`torch.jit.script` is deprecated", category=DeprecationWarning)
    hv = hvp(*(torch.from_numpy(a) for a in (w, v, X, y))).numpy()

X64, w64, v64 = (a.astype(np.float64) for a in (X, w, v))
s = 1 / (1 + np.exp(-y * (X64 @ w64)))
exact = X64.T @ (s * (1 - s) * (X64 @ v64)) / m  # H v by hand
print("torch H v:        ", hv)
print("NumPy closed form:", exact.astype(np.float32))
assert np.allclose(hv, exact, rtol=1e-5, atol=1e-7)
