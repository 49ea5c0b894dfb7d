"""jax.profiler.trace writes a trace into a folder: list the files and find our annotations in it."""
import gzip
import json
import socket
import tempfile
from pathlib import Path

import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    return jnp.tanh(x @ x)


x = jnp.ones((200, 200))
step(x).block_until_ready()  # compile before tracing, so that the trace shows the steady state

with tempfile.TemporaryDirectory() as log_dir:
    with jax.profiler.trace(log_dir, create_perfetto_trace=True):
        for i in range(3):
            with jax.profiler.TraceAnnotation(f"train_step {i}"):  # a named span on the timeline
                step(x).block_until_ready()  # block, so that the work happens inside the trace
    written = sorted(p.relative_to(log_dir) for p in Path(log_dir).rglob("*") if p.is_file())
    trace_file = next(p for p in written if p.name.endswith(".trace.json.gz"))
    with gzip.open(Path(log_dir) / trace_file) as fh:
        events = json.load(fh)["traceEvents"]  # the Chrome trace-event format

for path in written:  # plugins/profile/<date and time of the run>/<file>
    print("plugins/profile/<run>/" + path.name.replace(socket.gethostname(), "<host>"))
spans = {e["name"]: e for e in events if e.get("name", "").startswith("train_step")}
calls = [e for e in events if e.get("name") == "PjitFunction(step)"]  # the calls of the jitted function
for name, span in sorted(spans.items()):
    found = any(span["ts"] <= c["ts"] <= span["ts"] + span["dur"] for c in calls)
    print(f"{name}: contains a PjitFunction(step) event: {found}")
    assert found  # each call sits inside its annotation on the timeline

assert all(p.parts[:2] == ("plugins", "profile") and len(p.parts) == 4 for p in written)  # one run folder
assert any(p.name.endswith(".xplane.pb") for p in written)  # <host>.xplane.pb, for XProf
assert any(p.name == "perfetto_trace.json.gz" for p in written)  # from create_perfetto_trace=True
assert sorted(spans) == ["train_step 0", "train_step 1", "train_step 2"]
