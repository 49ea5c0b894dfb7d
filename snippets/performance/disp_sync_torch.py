"""loss.item() every step against losses kept as tensors and converted once, in PyTorch."""
# The timings this program prints differ from run to run and from machine to machine.
import os
import platform
import time

import numpy as np
import torch

N_STEPS, BATCH = 30, 128
device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
torch.set_num_threads(1)  # operations this small gain nothing from more threads, and lose on a busy machine
model = torch.nn.Sequential(torch.nn.Linear(64, 512), torch.nn.ReLU(), torch.nn.Linear(512, 10)).to(device)
initial = {k: v.clone() for k, v in model.state_dict().items()}


def host_batch(rng):  # the host's share of a step: make the next batch with NumPy
    x = rng.standard_normal((BATCH, 64), dtype=np.float32)
    return torch.from_numpy(x).to(device), torch.from_numpy(x[:, :10].argmax(axis=1)).to(device)


def train(sync_every_step):
    model.load_state_dict(initial)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    rng, losses = np.random.default_rng(0), []
    start = time.perf_counter()
    for _ in range(N_STEPS):
        x, y = host_batch(rng)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        # .item() copies to the host and, on a GPU, waits for the step; detach() keeps no graph alive.
        losses.append(loss.item() if sync_every_step else loss.detach())
    losses = np.array(losses) if sync_every_step else torch.stack(losses).cpu().numpy()  # one wait
    return 1e6 * (time.perf_counter() - start) / N_STEPS, losses


train(True), train(False)  # warm-up
runs = {True: [], False: []}
for _ in range(3):  # interleaved rounds, so a busy moment slows both loops alike
    for sync in (True, False):
        runs[sync].append(train(sync))
best = {sync: min(t for t, _ in r) for sync, r in runs.items()}
print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, PyTorch device: {device}")
print(f"per step, fastest of 3 runs of {N_STEPS} steps: loss.item() every step {best[True]:.0f} µs, "
      f"losses kept as tensors {best[False]:.0f} µs, ratio {best[True] / best[False]:.2f}")
losses_sync, losses_kept = runs[True][0][1], runs[False][0][1]
print("same losses both ways:", np.allclose(losses_sync, losses_kept), "last loss:", f"{losses_kept[-1]:.4f}")
assert losses_kept.dtype == np.float32 and np.allclose(losses_sync, losses_kept, atol=1e-6)
assert losses_kept[-1] < losses_kept[0]
