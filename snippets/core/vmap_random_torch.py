"""PyTorch: random ops inside torch.func.vmap need an explicit `randomness` mode."""
import torch
from torch.func import vmap


def add_noise(x):  # one example: x plus one random draw
    return x + torch.randn(())


x = torch.zeros(4)  # a batch of 4 examples
caught = None
try:
    vmap(add_noise)(x)  # the default is randomness="error"
except RuntimeError as err:
    caught = err
print("default:", str(caught).split(".")[0])
assert caught is not None and "randomness error mode" in str(caught)

torch.manual_seed(0)  # the global generator still supplies the numbers
different = vmap(add_noise, randomness="different")(x)
same = vmap(add_noise, randomness="same")(x)
print("different:", different)
print("same:     ", same)
assert len(set(different.tolist())) == 4 and len(set(same.tolist())) == 1
