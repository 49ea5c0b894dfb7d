"""PyTorch: state_dict() is a flat dict from dotted names to tensors."""
import torch
from torch import nn
from torch.utils import _pytree  # PyTorch's pytree helpers: a private module


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(4, 8)
        self.l2 = nn.Linear(8, 1)

    def forward(self, x):
        return self.l2(torch.tanh(self.l1(x)))


state = MLP().state_dict()
for name, tensor in state.items():
    print(f"{name:10} {tuple(tensor.shape)}")

# One level only: the nesting of modules is folded into the dotted key strings.
assert list(state) == ["l1.weight", "l1.bias", "l2.weight", "l2.bias"]
assert all(isinstance(t, torch.Tensor) for t in state.values())
assert state["l1.weight"].shape == (8, 4)  # torch stores Linear weights as (out, in)
# The private helpers see the same four tensors as leaves.
assert len(_pytree.tree_leaves(state)) == 4
