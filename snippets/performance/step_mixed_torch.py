"""Mixed precision in PyTorch on the CPU: torch.autocast with bfloat16, float32 weights and gradients."""
# The timings this program prints differ from run to run and from machine to machine.
import os
import platform
import time

import numpy as np
import torch
from torch import nn

rng = np.random.default_rng(0)
teacher = rng.normal(size=(32, 4))
x = rng.normal(size=(1024, 32)).astype(np.float32)
y = np.argmax(x @ teacher + rng.normal(size=(1024, 4)), axis=1)  # noisy labels
x_train, x_test = map(torch.from_numpy, np.split(x, 2))
y_train, y_test = map(torch.from_numpy, np.split(y, 2))


def train(autocast):
    torch.manual_seed(0)  # the same initial weights for both runs
    model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 4))
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    times = []
    for step in range(40):
        start = time.perf_counter()
        optimizer.zero_grad()
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):  # forward and loss only
            logits = model(x_train)
            loss = nn.functional.cross_entropy(logits, y_train)
        loss.backward()  # outside autocast, as the PyTorch docs recommend
        optimizer.step()
        times.append(time.perf_counter() - start)
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
        acc = (model(x_test).argmax(1) == y_test).float().mean().item()
    dtypes = {p.dtype for p in model.parameters()} | {p.grad.dtype for p in model.parameters()}
    return loss.item(), acc, 1e3 * min(times[1:]), (logits.dtype, loss.dtype), dtypes


print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, torch threads: {torch.get_num_threads()}")
(l32, a32, t32, _, _), (l16, a16, t16, (logits_dtype, loss_dtype), dtypes) = train(False), train(True)
print(f" float32: train loss {l32:.6f}, test accuracy {a32:.3f}, step {t32:.2f} ms (fastest of 39)")
print(f"autocast: train loss {l16:.6f}, test accuracy {a16:.3f}, step {t16:.2f} ms (fastest of 39)")
print(f"under autocast: logits {logits_dtype}, loss {loss_dtype}; weights and gradients {sorted(map(str, dtypes))}")
print(f"autocast step time / float32 step time: {t16 / t32:.2f}")
assert logits_dtype == torch.bfloat16 and loss_dtype == torch.float32 and dtypes == {torch.float32}
assert abs(a16 - a32) < 0.03 and abs(l16 - l32) < 0.1 * l32  # accuracy and loss close to f32
