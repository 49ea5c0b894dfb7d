"""PyTorch: count a matmul's flops with FlopCounterMode and turn a timed run into FLOP/s."""
# The timings this program prints differ from run to run and from machine to machine.
import statistics
import time

import torch
from torch.utils.flop_counter import FlopCounterMode

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)


def seconds_per_call(a, b, repeats=10):
    torch.matmul(a, b)  # warm-up
    if device == "cuda":  # CUDA events time the GPU's own work; synchronize before reading them
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(repeats):
            torch.matmul(a, b)
        end.record()
        torch.cuda.synchronize()
        return start.elapsed_time(end) / 1e3 / repeats  # elapsed_time is in milliseconds
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        torch.matmul(a, b)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


for n in (128, 256, 512):
    a, b = torch.randn(n, n, device=device), torch.randn(n, n, device=device)
    with FlopCounterMode(display=False) as counter:
        torch.matmul(a, b)
    flops = counter.get_total_flops()
    seconds = seconds_per_call(a, b)
    print(f"{device} n={n}: FlopCounterMode {flops:.3e} flops, {seconds * 1e3:.3f} ms, {flops / seconds / 1e9:.1f} GFLOP/s")
    assert flops == 2 * n**3  # one multiply and one add per term, as cost_analysis counts them
