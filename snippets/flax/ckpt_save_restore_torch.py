"""PyTorch: save a model's and an optimizer's state_dict, load both into a new model, resume exactly."""
import pathlib
import tempfile

import torch

torch.manual_seed(0)
x = torch.randn(32, 4)
y = torch.sin(x.sum(dim=1, keepdim=True))


def make_model():
    return torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))


def train_step(model, optimizer):
    optimizer.zero_grad()
    torch.mean((model(x) - y) ** 2).backward()
    optimizer.step()


model = make_model()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for _ in range(5):
    train_step(model, optimizer)

with tempfile.TemporaryDirectory() as tmp:
    path = pathlib.Path(tmp) / "step_5.pt"
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, path)
    print("saved:", path.name, "| a file:", path.is_file())

    new_model = make_model()  # different initial weights
    new_optimizer = torch.optim.Adam(new_model.parameters(), lr=1e-2)
    assert not torch.equal(new_model(x), model(x))
    checkpoint = torch.load(path)  # weights_only=True by default: tensors and containers only
new_model.load_state_dict(checkpoint["model"])
new_optimizer.load_state_dict(checkpoint["optimizer"])

print("restored optimizer step:", new_optimizer.state_dict()["state"][0]["step"].item())
with torch.no_grad():
    print("outputs identical:", torch.equal(new_model(x), model(x)))
    assert torch.equal(new_model(x), model(x))  # bit for bit, no tolerance
for _ in range(3):  # resume both runs from step 5
    train_step(model, optimizer)
    train_step(new_model, new_optimizer)
same = all(torch.equal(a, b) for a, b in zip(new_model.state_dict().values(), model.state_dict().values()))
print("3 steps later, identical parameters:", same)
assert same
