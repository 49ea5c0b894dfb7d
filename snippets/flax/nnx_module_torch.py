"""PyTorch: a module with a trained parameter, a running-mean buffer and a call counter."""
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(3, 2))  # trained
        self.register_buffer("running_mean", torch.zeros(2))  # saved, not trained
        self.register_buffer("calls", torch.tensor(0))

    def forward(self, x):
        y = x @ self.w
        with torch.no_grad():  # buffers change in place, outside autograd
            self.running_mean.mul_(0.9).add_(0.1 * y.mean(0))
            self.calls += 1
        return y


torch.manual_seed(0)
model = Net()
x = torch.linspace(-1.0, 1.0, 12).reshape(4, 3)
model(x).pow(2).mean().backward()

print("parameters:", {n: tuple(p.shape) for n, p in model.named_parameters()})
print("buffers:   ", {n: tuple(b.shape) for n, b in model.named_buffers()})
print("calls:", int(model.calls), "| running_mean:", model.running_mean.numpy().round(3))
assert [n for n, _ in model.named_parameters()] == ["w"]
assert model.w.grad is not None and model.running_mean.grad is None  # buffers get no gradient
assert int(model.calls) == 1 and bool(model.running_mean.abs().sum() > 0)
