"""BatchNorm2d on the whole batch (SyncBatchNorm's statistics) versus on one DDP replica's share."""
import copy

import torch
import torch.nn as nn
from sklearn.datasets import load_digits

torch.manual_seed(0)
digits = load_digits()
x = torch.tensor(digits.images[:64, None] / 16, dtype=torch.float32)  # 64 images, NCHW
conv = nn.Conv2d(1, 16, kernel_size=3, padding=1)
bn = nn.BatchNorm2d(16)  # momentum=0.1, training mode

with torch.no_grad():
    features = conv(x)
    whole = copy.deepcopy(bn)
    whole(features)  # one process, or SyncBatchNorm over 8 processes: statistics of all 64 images
    # DDP broadcasts rank 0's buffers to the other ranks, so replica 0's statistics are what it keeps.
    replicas = [copy.deepcopy(bn) for _ in range(8)]
    for replica, chunk in zip(replicas, features.chunk(8)):  # plain DDP: each of 8 ranks sees 8
        replica(chunk)

print("running mean, channels 0-3")
print("  whole batch ", whole.running_mean[:4].numpy().round(5))
print("  replica 0   ", replicas[0].running_mean[:4].numpy().round(5))
gap = float((replicas[0].running_mean / whole.running_mean - 1).abs().max())
print(f"replica 0 differs by up to {gap:.1%} of a channel's running mean")
assert torch.allclose(whole.running_mean, 0.1 * features.mean(dim=(0, 2, 3)), atol=1e-6)
assert gap > 0.01
