"""PyTorch: torch.profiler with a schedule, prof.step(), record_function, and key_averages by self CPU time."""
# The timings this program prints differ from run to run and from machine to machine.
import os

os.environ.setdefault("KINETO_LOG_LEVEL", "6")  # silence the profiler's C++ log on stderr
import torch
from torch.profiler import ProfilerActivity, profile, record_function, schedule

torch.manual_seed(0)
w = torch.randn(128, 128, requires_grad=True)
x = torch.randn(256, 128)
opt = torch.optim.SGD([w], lr=0.1)
ready = []

# Step 0 is skipped, step 1 warms the profiler up, steps 2 to 4 are recorded, then the handler runs once.
with profile(activities=[ProfilerActivity.CPU], schedule=schedule(wait=1, warmup=1, active=3, repeat=1),
             on_trace_ready=ready.append) as prof:  # add ProfilerActivity.CUDA on a GPU
    for _ in range(5):
        with record_function("forward"):  # a named span, like jax.named_scope's names on a timeline
            loss = torch.tanh(x @ w).pow(2).mean()
        with record_function("backward"):
            opt.zero_grad()
            loss.backward()
        opt.step()
        prof.step()  # tells the schedule that a step ended

averages = prof.key_averages()
print(averages.table(sort_by="self_cpu_time_total", row_limit=6))
counts = {e.key: e.count for e in averages}
print("counts:", {k: counts[k] for k in ("forward", "backward", "aten::mm", "aten::tanh")})
print("step spans:", {k: v for k, v in counts.items() if k.startswith("ProfilerStep")})
assert len(ready) == 1  # on_trace_ready ran once, when the 3 active steps were done
assert counts["forward"] == counts["backward"] == counts["aten::tanh"] == 3  # only the active steps
assert counts["ProfilerStep*"] == 3  # prof.step() spans, ProfilerStep#2 to #4, grouped in the averages
