"""PyTorch: torch.optim.SGD holds the parameters and changes them in place in step()."""
import numpy as np
import torch

# Fixed data, shared with the JAX tab: y = x @ [1, -2, 0.5] + 0.3 + noise.
rng = np.random.default_rng(0)
x_np = rng.normal(size=(64, 3)).astype(np.float32)
y_np = (x_np @ np.array([1.0, -2.0, 0.5], np.float32) + 0.3
        + 0.1 * rng.normal(size=64).astype(np.float32))
x, y = torch.from_numpy(x_np), torch.from_numpy(y_np)

w = torch.zeros(3, requires_grad=True)
b = torch.zeros((), requires_grad=True)
optimizer = torch.optim.SGD([w, b], lr=0.1)  # the optimizer keeps references to w and b
w_before = w

for step in range(50):
    optimizer.zero_grad()  # .grad would otherwise add up across steps
    loss = torch.mean((x @ w + b - y) ** 2)
    loss.backward()  # writes w.grad and b.grad
    optimizer.step()  # overwrites w and b in place, returns None

final = torch.mean((x @ w + b - y) ** 2).item()
print(f"loss after 50 steps: {final:.6f}")
print("w:", w.detach().numpy().round(3), "b:", round(b.item(), 3))
print("SGD state_dict()['state']:", optimizer.state_dict()["state"])
assert w is w_before and not torch.equal(w, torch.zeros(3))  # same tensor, new values
assert final < 0.02  # close to the noise level 0.1**2 = 0.01
