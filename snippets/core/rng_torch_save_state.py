"""PyTorch: save a generator's state in a checkpoint and restore it to repeat the next draws."""
import io

import torch

g = torch.Generator().manual_seed(0)
torch.randn(3, generator=g)  # some training happened
state = g.get_state()  # a uint8 tensor with the generator's internal state
print("state:", tuple(state.shape), state.dtype)

buffer = io.BytesIO()  # stands in for a checkpoint file
torch.save({"rng": state}, buffer)
expected = torch.randn(3, generator=g)  # what the run draws next

restored = torch.Generator()
buffer.seek(0)
restored.set_state(torch.load(buffer)["rng"])
resumed = torch.randn(3, generator=restored)
print("next draw:", expected)
print("resumed:  ", resumed)
assert torch.equal(expected, resumed)
