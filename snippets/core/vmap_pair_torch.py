"""PyTorch: torch.func.vmap batches per-example functions; in_dims plays the role of in_axes."""
import numpy as np
import torch
from torch.func import vmap

xs_np = np.sin(np.arange(12.0)).astype(np.float32).reshape(4, 3)  # 4 examples
w_np = np.array([[1.0, -1.0], [0.5, 2.0], [-0.3, 0.1]], dtype=np.float32)


def predict(w, x):  # one example: x (3,) -> (2,)
    return torch.tanh(x @ w)


def distance(p, q):  # two points (3,) -> a scalar
    return torch.sqrt(torch.sum((p - q) ** 2))


w, xs = torch.from_numpy(w_np), torch.from_numpy(xs_np)
preds = vmap(predict, in_dims=(None, 0))(w, xs)  # None: w is shared
dists = vmap(vmap(distance, in_dims=(None, 0)), in_dims=(0, None))(xs, xs)  # (4, 4)
print("predictions:\n", np.round(preds.numpy(), 4))
print("distances:\n", np.round(dists.numpy(), 4))

assert torch.vmap is vmap  # one function, two names
chunked = vmap(predict, in_dims=(None, 0), chunk_size=2)(w, xs)  # 2 examples at a time
assert torch.allclose(chunked, preds, atol=1e-6)
# The NumPy formulas that the JAX tab checks against too.
assert np.allclose(preds.numpy(), np.tanh(xs_np @ w_np), atol=1e-6)
assert np.allclose(dists.numpy(), np.linalg.norm(xs_np[:, None] - xs_np[None], axis=-1), atol=1e-6)
