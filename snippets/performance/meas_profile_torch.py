"""PyTorch: torch.profiler records CPU operators; record_function names a span; export a Chrome trace."""
import json
import os
import tempfile

# The profiler's C++ library (Kineto) logs its start, stop and GPU probe on stderr; level 6 silences it.
os.environ.setdefault("KINETO_LOG_LEVEL", "6")
import torch
from torch.profiler import ProfilerActivity, profile, record_function

torch.manual_seed(0)
x = torch.randn(200, 200)

with profile(activities=[ProfilerActivity.CPU]) as prof:  # add ProfilerActivity.CUDA on a GPU
    for i in range(3):
        with record_function(f"train_step {i}"):  # a named span on the timeline
            torch.tanh(x @ x)

# prof.key_averages().table() prints a table of times per operator; here, the call counts.
calls = {e.key: e.count for e in prof.key_averages() if e.key.startswith(("train_step", "aten::matmul", "aten::tanh"))}
print("calls:", dict(sorted(calls.items())))
with tempfile.TemporaryDirectory() as log_dir:
    path = os.path.join(log_dir, "trace.json")
    prof.export_chrome_trace(path)  # the same trace-event format as JAX's *.trace.json.gz
    with open(path) as fh:
        names = {event.get("name") for event in json.load(fh)["traceEvents"]}
assert calls == {"aten::matmul": 3, "aten::tanh": 3, "train_step 0": 1, "train_step 1": 1, "train_step 2": 1}
assert {"train_step 0", "train_step 2", "aten::matmul", "aten::tanh"} <= names
