"""PyTorch: AdamW with two parameter groups, weight decay only on the weight matrices."""
import numpy as np
import torch

rng = np.random.default_rng(0)  # the same NumPy weights and data as the JAX tab
w1, w2 = rng.normal(size=(4, 8)).astype(np.float32), rng.normal(size=(8, 1)).astype(np.float32)
x, y = rng.normal(size=(16, 4)).astype(np.float32), rng.normal(size=(16, 1)).astype(np.float32)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden, self.norm, self.out = torch.nn.Linear(4, 8), torch.nn.LayerNorm(8), torch.nn.Linear(8, 1)

    def forward(self, x):
        return self.out(torch.tanh(self.norm(self.hidden(x))))


net = Net()
with torch.no_grad():  # torch.nn.Linear stores weight as (out, in): transpose the kernels
    net.hidden.weight.copy_(torch.from_numpy(w1.T))
    net.out.weight.copy_(torch.from_numpy(w2.T))
    net.hidden.bias.zero_()
    net.out.bias.zero_()

# The classic split: no weight decay for biases and LayerNorm parameters.
named = dict(net.named_parameters())
no_decay = [n for n in named if n.endswith("bias") or n.startswith("norm")]
decay = [n for n in named if n not in no_decay]
opt = torch.optim.AdamW([{"params": [named[n] for n in decay], "weight_decay": 0.1},
                         {"params": [named[n] for n in no_decay], "weight_decay": 0.0}], lr=0.05)
print("decay:   ", decay)
print("no_decay:", no_decay)

xt, yt = torch.from_numpy(x), torch.from_numpy(y)
for step in range(20):
    opt.zero_grad()
    loss = torch.mean((net(xt) - yt) ** 2)
    loss.backward()
    opt.step()
print(f"loss before the last step: {loss.item():.4f}")
print("norm.weight after 20 steps:", net.norm.weight.detach().numpy().round(4))
assert len(opt.param_groups) == 2 and sorted(decay) == ["hidden.weight", "out.weight"]
