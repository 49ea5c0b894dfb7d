"""PyTorch: common distributions drawn from one explicit torch.Generator, with their dtypes."""
import torch

g = torch.Generator().manual_seed(0)  # a generator object instead of the global one
probs = torch.tensor([0.1, 0.2, 0.7])

samples = {
    "randn": torch.randn(2, 3, generator=g),
    "rand": torch.rand(4, generator=g),
    "randint": torch.randint(0, 10, (5,), generator=g),
    "bernoulli": torch.bernoulli(torch.full((6,), 0.3), generator=g),
    "multinomial": torch.multinomial(probs, 8, replacement=True, generator=g),
    "randperm": torch.randperm(5, generator=g),
}
for name, x in samples.items():
    print(f"{name:11s} {str(tuple(x.shape)):7s} {x.dtype}")

assert samples["randn"].dtype == torch.float32
assert samples["randint"].dtype == torch.int64  # 64-bit integers by default
assert samples["bernoulli"].dtype == torch.float32  # 0.0 / 1.0, dtype of the probabilities
assert samples["multinomial"].dtype == torch.int64
assert sorted(samples["randperm"].tolist()) == list(range(5))
# The generator moved on: the same call gives new numbers.
assert not torch.equal(torch.randn(2, 3, generator=g), samples["randn"])
