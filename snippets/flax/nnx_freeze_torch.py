"""PyTorch: fine-tune only the head; frozen parameters stay, BatchNorm statistics still move."""
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.body = torch.nn.Linear(3, 8)
        self.bn = torch.nn.BatchNorm1d(8)
        self.head = torch.nn.Linear(8, 1)

    def forward(self, x):
        return self.head(torch.relu(self.bn(self.body(x))))


torch.manual_seed(0)
model = Net()
model.body.requires_grad_(False)  # freeze every parameter outside the head
model.bn.requires_grad_(False)
print("trainable:", {n: tuple(p.shape) for n, p in model.named_parameters() if p.requires_grad})
optimizer = torch.optim.Adam(model.head.parameters(), lr=1e-2)

x = torch.linspace(-1.0, 1.0, 12).reshape(4, 3)
y = torch.ones(4, 1)
groups = {
    "frozen": lambda: [*model.body.parameters(), *model.bn.parameters()],
    "head": lambda: list(model.head.parameters()),
    "stats": lambda: [model.bn.running_mean, model.bn.running_var],
}


def unchanged_after(steps):
    before = {k: [t.detach().clone() for t in get()] for k, get in groups.items()}
    for _ in range(steps):
        optimizer.zero_grad()
        torch.mean((model(x) - y) ** 2).backward()
        optimizer.step()
    return {k: all(torch.equal(a, b) for a, b in zip(before[k], get())) for k, get in groups.items()}


result = unchanged_after(3)
print("unchanged after 3 steps:", result)
assert result == {"frozen": True, "head": False, "stats": False}  # the statistics still move
model.bn.eval()  # BatchNorm now uses and keeps its running statistics
result = unchanged_after(3)
print("with model.bn.eval():   ", result)
assert result == {"frozen": True, "head": False, "stats": True}
