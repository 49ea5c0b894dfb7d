"""PyTorch: an out-of-bounds index raises an IndexError, for reads and for writes."""
import torch

x = torch.arange(5.0)
errors = []
try:
    x[10]  # read
except IndexError as err:
    errors.append(err)
try:
    x[10] = 99.0  # write
except IndexError as err:
    errors.append(err)
for err in errors:
    print("IndexError:", err)
assert len(errors) == 2 and all("out of bounds" in str(err) for err in errors)
assert x.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
