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


def per_call_ms(times):
    return f"min {min(times) * 1e3:.3f} ms, median {statistics.median(times) * 1e3:.3f} ms per call"


# Timer runs with ONE thread unless told otherwise; JAX uses every core.
# blocked_autorange: a warm-up that sizes the blocks, then blocks of calls for at least 2 s.
one = benchmark.Timer("step(x)", globals={"step": step, "x": x}).blocked_autorange(min_run_time=2)
every = benchmark.Timer("step(x)", globals={"step": step, "x": x}, num_threads=torch.get_num_threads())
m = every.blocked_autorange(min_run_time=2)  # several blocks, so that the median is of several numbers

# The standard-library recipe of the JAX tab, on the same function, with torch's threads.
per_call = [total / 10 for total in timeit.Timer(lambda: step(x)).repeat(repeat=7, number=10)]

print(f"machine: {platform.machine()}, {os.cpu_count()} CPU cores, torch threads: {torch.get_num_threads()}")
for r in (one, m):
    print(f"Timer, num_threads={r.task_spec.num_threads}, {len(r.times)} blocks of {r.number_per_run}: {per_call_ms(r.times)}")
print(f"timeit, {torch.get_num_threads()} threads, 7 repeats of 10: {per_call_ms(per_call)}")
assert one.task_spec.num_threads == 1 and m.task_spec.num_threads == torch.get_num_threads()
assert math.isclose(m.median, statistics.median(m.times))  # m.times: one per-call time for each block
