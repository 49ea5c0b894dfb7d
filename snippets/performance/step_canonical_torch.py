"""PyTorch: the same train step with zero_grad, backward and an in-place Adam step."""
import numpy as np
import torch
from torch import nn

# Fixed data and initial weights from NumPy, shared with the JAX tab.
rng = np.random.default_rng(0)
x = rng.normal(size=(512, 32)).astype(np.float32)
y = np.argmax(x @ rng.normal(size=(32, 4)) + rng.normal(size=(512, 4)), axis=1)  # 4 noisy classes
w1 = rng.normal(size=(32, 128)).astype(np.float32) / np.sqrt(32)
w2 = rng.normal(size=(128, 4)).astype(np.float32) / np.sqrt(128)
x, y = torch.from_numpy(x), torch.from_numpy(y)

model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 4))
with torch.no_grad():  # nn.Linear keeps weight as (out, in): transpose the NumPy (in, out) arrays
    for layer, w in ((model[0], w1), (model[2], w2)):
        layer.weight.copy_(torch.from_numpy(w.T))
        layer.bias.zero_()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)


def train_step(x, y):
    optimizer.zero_grad()
    logits = model(x)
    loss = nn.functional.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()  # updates the parameters in place
    return {"loss": loss.item(), "accuracy": (logits.argmax(1) == y).float().mean().item()}


weight_before = model[0].weight
history = [train_step(x, y) for _ in range(30)]
for step in (0, 9, 19, 29):
    print(f"step {step:>2}: loss {history[step]['loss']:.4f}, accuracy {history[step]['accuracy']:.3f}")
print("same weight tensor after training:", model[0].weight is weight_before)
assert history[-1]["loss"] < 0.5 * history[0]["loss"] and history[-1]["accuracy"] > 0.8
assert model[0].weight is weight_before  # in place: nothing to rebind, nothing to donate
