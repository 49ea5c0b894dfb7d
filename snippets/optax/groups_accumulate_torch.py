"""PyTorch: accumulate gradients over 4 micro-batches, step once, and compare with the large batch."""
import numpy as np
import torch

rng = np.random.default_rng(0)
x = torch.from_numpy(rng.normal(size=(32, 3)).astype(np.float32))  # one large batch of 32
y = x @ torch.tensor([1.0, -2.0, 0.5])
w0 = torch.from_numpy(rng.normal(size=3).astype(np.float32))
k = 4  # micro-batches of 8 per optimizer step


def loss_fn(w, xb, yb):
    return torch.mean((xb @ w - yb) ** 2)


w = w0.clone().requires_grad_(True)
opt = torch.optim.Adam([w], lr=0.1)
for i, (xb, yb) in enumerate(zip(x.chunk(k) * 2, y.chunk(k) * 2)):  # 2 passes over the batch
    (loss_fn(w, xb, yb) / k).backward()  # .grad adds up; dividing by k makes it a mean
    if (i + 1) % k == 0:
        opt.step()
        opt.zero_grad()

big = w0.clone().requires_grad_(True)
opt_big = torch.optim.Adam([big], lr=0.1)
for _ in range(2):  # 2 steps on the whole batch
    opt_big.zero_grad()
    loss_fn(big, x, y).backward()
    opt_big.step()
diff = (w - big).abs().max().item()
print("accumulated:", w.detach().numpy(), "| optimizer steps:", int(opt.state[w]["step"]))
print("large batch:", big.detach().numpy())
print(f"max difference: {diff:.1e} (tolerance 1e-6)")
assert diff < 1e-6 and int(opt.state[w]["step"]) == 2  # "step" counts optimizer.step() calls
