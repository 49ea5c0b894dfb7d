"""PyTorch: a small CNN as nn.Sequential, and the names and shapes in its state_dict."""
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(3, 8, kernel_size=3, padding=1),  # 0: input (N, 3, 8, 8), NCHW
    nn.BatchNorm2d(8),  # 1
    nn.ReLU(),  # 2
    nn.MaxPool2d(2),  # 3: (N, 8, 4, 4)
    nn.Flatten(),  # 4: (N, 128), in (C, H, W) order
    nn.Linear(8 * 4 * 4, 10),  # 5
)
for name, tensor in model.state_dict().items():
    print(f"{name:22s} {str(tuple(tensor.shape)):14s} {tensor.dtype}")

params = dict(model.named_parameters())
buffers = dict(model.named_buffers())
print(f"{len(params)} parameters, {len(buffers)} buffers")
assert set(model.state_dict()) == set(params) | set(buffers)
assert set(buffers) == {"1.running_mean", "1.running_var", "1.num_batches_tracked"}
assert model.training  # a new module starts in training mode
