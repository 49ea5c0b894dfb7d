"""PyTorch: torch.utils.benchmark.Timer warms up, repeats and reports the median; give it your thread count."""
# The timings this program prints differ from run to run and from machine to machine.
import logging
import math
import os
import platform
import statistics
import timeit

import torch

# On a machine with a CUDA toolkit but no GPU, importing torch.utils.benchmark logs a notice on stderr.
logging.getLogger("torch.utils.cpp_extension").setLevel(logging.ERROR)
from torch.utils import benchmark

torch.manual_seed(0)
x = torch.randn(300, 300)


def step(x):
    return torch.tanh(x @ x)


# Timer runs with ONE thread unless told otherwise; JAX uses every core.
default_threads = benchmark.Timer("step(x)", globals={"step": step, "x": x}).timeit(1).task_spec.num_threads
timer = benchmark.Timer("step(x)", globals={"step": step, "x": x}, num_threads=torch.get_num_threads())
m = timer.blocked_autorange(min_run_time=0.3)  # warm-up, then blocks of calls for at least 0.3 s

# The standard-library recipe of the JAX tab, on the same function.
per_call = [total / 10 for total in timeit.Timer(lambda: step(x)).repeat(repeat=7, number=10)]

print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, torch threads: {torch.get_num_threads()}")
print(f"Timer default num_threads: {default_threads}")
print(f"Timer, {len(m.times)} blocks of {m.number_per_run}: min {min(m.times) * 1e3:.3f} ms, median {m.median * 1e3:.3f} ms per call")
print(f"timeit, 7 repeats of 10:     min {min(per_call) * 1e3:.3f} ms, median {statistics.median(per_call) * 1e3:.3f} ms per call")
assert default_threads == 1
assert math.isclose(m.median, statistics.median(m.times))  # m.times: one per-call time for each block
