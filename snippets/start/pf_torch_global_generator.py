"""PyTorch: a seeded generator whose hidden state advances on every call."""
import torch

torch.manual_seed(0)  # seeds the global default generator
a = torch.randn(3)
b = torch.randn(3)  # identical call, different numbers: the hidden state moved on
print("randn #1:", a)
print("randn #2:", b)
assert not torch.equal(a, b)

torch.manual_seed(0)  # reseeding rewinds the hidden state
assert torch.equal(torch.randn(3), a)

# One extra draw anywhere (a library, a new layer) shifts every later draw.
torch.manual_seed(0)
torch.rand(1)
shifted = torch.randn(3)
print("after one extra draw:", shifted)
assert not torch.equal(shifted, a)

# An explicit torch.Generator object is still stateful in the same way.
gen = torch.Generator().manual_seed(0)
c = torch.randn(3, generator=gen)
d = torch.randn(3, generator=gen)
assert not torch.equal(c, d)
