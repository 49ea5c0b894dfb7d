"""Read a jax.profiler trace: which process and threads hold the host's work and which hold XLA's ops."""
import collections
import gzip
import json
import tempfile
from pathlib import Path

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x):
    loss, g = jax.value_and_grad(lambda w: jnp.mean(jnp.tanh(x @ w) ** 2))(w)
    return w - 0.1 * g, loss


w = jax.random.normal(jax.random.key(0), (256, 256)) * 0.05
x = jax.random.normal(jax.random.key(1), (512, 256))
w, loss = step(w, x)  # compile before the trace: this page's later sections trace the first call
loss.block_until_ready()

options = jax.profiler.ProfileOptions()
print("defaults: host_tracer_level", options.host_tracer_level, " python_tracer_level", options.python_tracer_level)
assert (options.host_tracer_level, options.python_tracer_level) == (2, 1)
options.python_tracer_level = 0  # no event per Python function call: a smaller file
with tempfile.TemporaryDirectory() as log_dir:
    with jax.profiler.trace(log_dir, profiler_options=options):
        for i in range(4):
            with jax.profiler.StepTraceAnnotation("train", step_num=i):  # one "train" span per step
                w, loss = step(w, x)
        loss.block_until_ready()
    trace_file = next(Path(log_dir).rglob("*.trace.json.gz"))
    events = json.load(gzip.open(trace_file))["traceEvents"]

processes = {e["pid"]: e["args"]["name"] for e in events if e.get("name") == "process_name"}
threads = {(e["pid"], e["tid"]): e["args"]["name"].split("/")[0] for e in events if e.get("name") == "thread_name"}
spans = [e for e in events if e.get("ph") == "X"]  # complete events: a start "ts" and a "dur", in µs
track = {id(e): threads.get((e["pid"], e["tid"]), "") for e in spans}  # the thread each span is on
(main,) = {track[id(e)] for e in spans if e["name"] == "PjitFunction(step)"}  # the thread that runs Python
host = {e["name"] for e in spans if track[id(e)] == main}
steps = sorted((e["args"]["step_num"], e["name"]) for e in spans if e["name"] == "train")
print("processes:", sorted(processes.values()))
print(f"Python's thread: {main!r}; host events on it:", sorted(host & {"PjitFunction(step)", "ParseArguments", "train"}))
print("step spans:", steps)
assert "ParseArguments" in host  # the call of the jitted function is host work, on Python's thread
assert steps == [(str(i), "train") for i in range(4)]  # step_num becomes an argument of the event

ops = [e for e in spans if "hlo_op" in e.get("args", {})]  # XLA:CPU's ops carry the instruction's name
if jax.default_backend() == "cpu":  # on the CPU backend, one process, and the ops run on XLA's threads
    print("threads:", sorted(set(threads.values())))  # names without their "/<id>" suffix
    on_xla = sum(track[id(e)].startswith("tf_XLA") for e in ops)
    print(f"XLA ops on {main!r}: {sum(track[id(e)] == main for e in ops)}, on tf_XLA* threads: {on_xla} of {len(ops)}")
    runs = collections.Counter(e["args"]["run_id"] for e in ops)  # one run_id per execution of the program
    print(f"{len(runs)} runs of jit_step, {len(ops) // len(runs)} XLA ops each")
    print("some XLA ops:", sorted({e["name"] for e in ops})[:6])
    print("hlo_module of the ops:", sorted({e["args"]["hlo_module"] for e in ops}))
    assert list(processes.values()) == ["/host:CPU"]
    assert on_xla == len(ops) > 0  # XLA's thread pools run the program, never Python's thread
    assert len(runs) == 4 and len(set(runs.values())) == 1  # the same ops in every step
    assert {e["args"]["hlo_module"] for e in ops} == {"jit_step"}
else:  # each device is a process of its own, with its tracks (on a TPU: Steps, XLA Modules, XLA Ops...)
    for pid, name in sorted(processes.items(), key=lambda kv: kv[1]):
        if name.startswith("/device:"):
            print(name, "tracks:", sorted({t for (p, _), t in threads.items() if p == pid}))
