"""PyTorch: parameters vs buffers, state_dict, and what model.train() / model.eval() switch."""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 4)
        self.bn = nn.BatchNorm1d(4)  # registers running_mean / running_var as buffers
        self.dropout = nn.Dropout(0.5)

    def forward(self, x):
        return self.dropout(self.bn(self.linear(x)))


torch.manual_seed(0)  # the global generator: weights now, dropout masks later
model = Net()
params = [name for name, _ in model.named_parameters()]
buffers = [name for name, _ in model.named_buffers()]
print("parameters:", params)
print("buffers:   ", buffers)
assert list(model.state_dict()) == params + buffers  # state_dict = parameters + buffers
# Buffers get no gradient and are not in model.parameters(), so no optimizer touches them.
assert all(p.requires_grad for p in model.parameters())
assert not any(b.requires_grad for b in model.buffers())

x = torch.arange(12.0).reshape(3, 4)
assert model.training  # a new module starts in training mode
before = model.bn.running_mean.clone()
model(x)  # training mode: dropout on, batch statistics, running mean updated
print("train(): running mean changed:", not torch.equal(before, model.bn.running_mean))
assert not torch.equal(before, model.bn.running_mean)

model.eval()  # flips .training on every submodule
frozen = model.bn.running_mean.clone()
with torch.no_grad():
    same = torch.equal(model(x), model(x))
print("eval(): two calls equal:", same, "| running mean unchanged:",
      torch.equal(frozen, model.bn.running_mean))
assert same and torch.equal(frozen, model.bn.running_mean)
assert not model.dropout.training and not model.bn.training
