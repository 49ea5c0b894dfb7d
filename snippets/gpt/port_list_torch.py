"""PyTorch: nn.ModuleList registers the blocks; a plain list hides them without an error."""
import torch
from torch import nn

torch.manual_seed(0)


class Plain(nn.Module):
    def __init__(self):
        super().__init__()
        self.h = [nn.Linear(4, 4) for _ in range(2)]  # a plain list: nothing is registered


class Listed(nn.Module):
    def __init__(self):
        super().__init__()
        self.h = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])
        self.heads = nn.ModuleDict({"lm": nn.Linear(4, 2)})


plain, listed = Plain(), Listed()
print("plain list :", list(plain.state_dict()))
print("ModuleList :", list(listed.state_dict()))
assert len(plain.state_dict()) == 0 and len(list(plain.parameters())) == 0  # silently lost
assert list(listed.state_dict())[:2] == ["h.0.weight", "h.0.bias"]
assert "heads.lm.weight" in listed.state_dict()
