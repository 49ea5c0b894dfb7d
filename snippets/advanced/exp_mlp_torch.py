"""torch.export: capture a small MLP with a dynamic batch dimension, save it, load it back."""
import io

import numpy as np
import torch

# Fixed weights from NumPy, so the JAX tab can use the very same numbers.
rng = np.random.default_rng(0)
w1, b1 = rng.normal(size=(4, 8)).astype(np.float32), np.zeros(8, np.float32)
w2, b2 = rng.normal(size=(8, 2)).astype(np.float32), np.full(2, 0.5, np.float32)


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = torch.nn.Linear(4, 8), torch.nn.Linear(8, 2)
        with torch.no_grad():  # nn.Linear stores weight as (out, in)
            for fc, w, b in ((self.fc1, w1, b1), (self.fc2, w2, b2)):
                fc.weight.copy_(torch.from_numpy(w.T))
                fc.bias.copy_(torch.from_numpy(b))

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))


batch = torch.export.Dim("batch", min=1, max=64)
ep = torch.export.export(MLP(), (torch.ones(3, 4),), dynamic_shapes={"x": {0: batch}})
print(ep.graph_signature.user_inputs, [n.meta["val"].shape for n in ep.graph.nodes if n.name == "x"])
(bounds,) = ep.range_constraints.values()
print("range of the batch symbol:", bounds)
assert (int(bounds.lower), int(bounds.upper)) == (1, 64)
print("weights kept outside the graph:", list(ep.state_dict))
assert list(ep.state_dict) == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]

buffer = io.BytesIO()
torch.export.save(ep, buffer)  # a .pt2 archive: graph + weights
buffer.seek(0)
loaded = torch.export.load(buffer).module()
print("saved bytes:", buffer.getbuffer().nbytes)

for n in (3, 5):  # two batch sizes, one exported program
    x = np.arange(n * 4, dtype=np.float32).reshape(n, 4) / 10
    y = loaded(torch.from_numpy(x)).detach().numpy()
    expected = np.tanh(x @ w1 + b1) @ w2 + b2
    print(n, y.shape, y[0])
    assert np.allclose(y, expected, atol=1e-5)
