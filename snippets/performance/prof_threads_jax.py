"""Read a jax.profiler trace with jax.profiler.ProfileData: which planes and lines hold the host's work and XLA's ops."""
import collections
import tempfile
import warnings
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
            with jax.profiler.StepTraceAnnotation("train", step_num=i):  # one "train" event per step
                w, loss = step(w, x)
        loss.block_until_ready()
    profile = jax.profiler.ProfileData.from_file(str(next(Path(log_dir).rglob("*.xplane.pb"))))

# The profile holds planes (the host, each device), each plane lines (threads, tracks), each line events.
Event = collections.namedtuple("Event", "plane line name start_ns duration_ns stats")
with warnings.catch_warnings():  # jaxlib 0.12 warns once that its stats types have no __module__: harmless
    warnings.simplefilter("ignore", DeprecationWarning)
    events = [Event(plane.name, line.name.split("/")[0], event.name, event.start_ns, event.duration_ns,
                    dict(event.stats))
              for plane in profile.planes for line in plane.lines for event in line.events]
planes = sorted({e.plane for e in events})  # the planes that hold events
(main,) = {(e.plane, e.line) for e in events if e.name == "PjitFunction(step)"}  # the thread that runs Python
host = {e.name for e in events if (e.plane, e.line) == main}
steps = sorted((e.stats["step_num"], e.name) for e in events if (e.plane, e.line) == main and e.name == "train")
print("planes:", planes)
print(f"Python's thread: {main[1]!r} of {main[0]}; host events on it:",
      sorted(host & {"PjitFunction(step)", "ParseArguments", "train"}))
print("step events:", steps)
assert "ParseArguments" in host  # the call of the jitted function is host work, on Python's thread
assert [int(n) for n, _ in steps] == list(range(4))  # step_num becomes a stat of the event

if jax.default_backend() == "cpu":  # on the CPU backend, one plane, and the ops run on XLA's threads
    ops = [e for e in events if "hlo_op" in e.stats]  # XLA:CPU's ops carry the instruction's name
    print("threads:", sorted({e.line for e in events if e.plane == "/host:CPU"}))  # without "/<id>"
    on_xla = sum(e.line.startswith("tf_XLA") for e in ops)
    print(f"XLA ops on {main[1]!r}: {sum((e.plane, e.line) == main for e in ops)}, "
          f"on tf_XLA* threads: {on_xla} of {len(ops)}")
    runs = collections.Counter(e.stats["run_id"] for e in ops)  # one run_id per execution of the program
    print(f"{len(runs)} runs of jit_step, {len(ops) // len(runs)} XLA ops each")
    print("some XLA ops:", sorted({e.name for e in ops})[:6])
    print("hlo_module of the ops:", sorted({e.stats["hlo_module"] for e in ops}))
    assert planes == ["/host:CPU"]
    assert on_xla == len(ops) > 0  # XLA's thread pools run the program, never Python's thread
    assert len(runs) == 4 and len(set(runs.values())) == 1  # the same ops in every step
    assert {e.stats["hlo_module"] for e in ops} == {"jit_step"}
for plane in planes:  # each device is a plane of its own (on a TPU: lines "XLA Modules", "XLA Ops"...)
    if plane.startswith("/device:"):
        lines = collections.Counter(e.line for e in events if e.plane == plane)
        print(plane, "lines (events):", ", ".join(f"{name} ({n})" for name, n in sorted(lines.items())))
        modules = [e for e in events if e.plane == plane and e.line == "XLA Modules"]
        if modules:  # one event per execution of a program, named after it
            print("  XLA Modules:", sorted({e.name.split("(")[0] for e in modules}),
                  f"mean {sum(e.duration_ns for e in modules) / len(modules) / 1e3:.1f} µs")
