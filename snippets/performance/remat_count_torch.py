"""PyTorch: torch.utils.checkpoint runs each block twice and saves far fewer activations."""
import torch
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)


class Block(torch.nn.Module):
    def __init__(self, width):
        super().__init__()
        self.l1, self.l2 = torch.nn.Linear(width, width), torch.nn.Linear(width, width)
        self.calls = 0

    def forward(self, h):
        self.calls += 1  # counts every forward run, including recomputations
        return h + self.l2(torch.tanh(self.l1(h)))


blocks = torch.nn.ModuleList(Block(256) for _ in range(6))
x = torch.randn(512, 256)
weights = {p.untyped_storage().data_ptr() for p in blocks.parameters()}


def step(remat):
    saved = {}  # bytes of each activation that autograd keeps for backward, once per buffer

    def pack(t):
        if (ptr := t.untyped_storage().data_ptr()) not in weights:  # weights are kept anyway
            saved[ptr] = t.untyped_storage().nbytes()
        return t

    for b in blocks:
        b.calls = 0
    blocks.zero_grad()
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        h = x
        for b in blocks:
            h = checkpoint(b, h, use_reentrant=False) if remat else b(h)
        loss = (h**2).mean()
    loss.backward()
    grads = [p.grad.clone() for p in blocks.parameters()]
    return sum(b.calls for b in blocks), sum(saved.values()), grads


(runs0, bytes0, g0), (runs1, bytes1, g1) = step(False), step(True)
print(f"plain:      {runs0} block runs, {bytes0 / 2**20:.2f} MiB of activations saved")
print(f"checkpoint: {runs1} block runs, {bytes1 / 2**20:.2f} MiB of activations saved")
assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(g0, g1))
assert (runs0, runs1) == (6, 12)  # each block runs again during backward
act = x.numel() * x.element_size()  # one (512, 256) float32 activation
assert bytes0 == (2 * 6 + 1) * act  # per block its input and tanh output, plus the final output
assert bytes1 == (6 + 1) * act  # per block only its input, plus the final output
