"""Top XLA ops by time from a trace read with jax.profiler.ProfileData, tied to their jax.named_scope by the HLO."""
# The timings this program prints differ from run to run and from machine to machine.
import collections
import re
import tempfile
import warnings
from pathlib import Path

import jax
import jax.numpy as jnp


def loss_fn(w, x, y):
    with jax.named_scope("layer1"):
        h = jnp.tanh(x @ w["w1"])
    with jax.named_scope("head"):
        out = h @ w["w2"]
    return jnp.mean((out - y) ** 2)


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(loss_fn)(w, x, y)
    return jax.tree.map(lambda p, d: p - 0.01 * d, w, g), loss


k1, k2, k3, k4 = jax.random.split(jax.random.key(0), 4)
w = {"w1": jax.random.normal(k1, (256, 256)) * 0.05, "w2": jax.random.normal(k2, (256, 16)) * 0.05}
x, y = jax.random.normal(k3, (512, 256)), jax.random.normal(k4, (512, 16))

# The compiled HLO: each instruction carries metadata={op_name="jit(step)/.../<primitive>" ...}.
hlo = step.lower(w, x, y).compile().as_text()
op_name = dict(re.findall(r'%([\w.\-]+) = .*?metadata=\{op_name="([^"]*)"', hlo))
w, loss = step(w, x, y)
loss.block_until_ready()  # compiled and warm

options = jax.profiler.ProfileOptions()
options.python_tracer_level = 0
with tempfile.TemporaryDirectory() as log_dir:
    with jax.profiler.trace(log_dir, profiler_options=options):
        for _ in range(5):
            w, loss = step(w, x, y)
        loss.block_until_ready()
    xplane_file = next(Path(log_dir).rglob("*.xplane.pb"))  # XProf's file, HLO included
    xplane = xplane_file.read_bytes()
    profile = jax.profiler.ProfileData.from_file(str(xplane_file))

Event = collections.namedtuple("Event", "plane line name start_ns duration_ns stats")
with warnings.catch_warnings():  # jaxlib 0.12 warns once that its stats types have no __module__: harmless
    warnings.simplefilter("ignore", DeprecationWarning)
    events = [Event(plane.name, line.name, event.name, event.start_ns, event.duration_ns, dict(event.stats))
              for plane in profile.planes for line in plane.lines for event in line.events]
timeline = " ".join([e.name for e in events] + [str(v) for e in events for v in e.stats.values()])
print("'layer1' in the timeline's events:", "layer1" in timeline, "  in the xplane.pb:", b"layer1" in xplane)

device = [e for e in events if e.plane.startswith("/device:")]
if device:  # a GPU or a TPU: the device plane's "XLA Ops" line, one event per HLO op, named by its HLO text
    ops = [(e.name.split(" = ")[0].lstrip("%"), e) for e in device if e.line == "XLA Ops"]
    modules = [e for e in device if e.line == "XLA Modules" and e.name.startswith("jit_step")]
    where = f"{device[0].plane}, line 'XLA Ops'"
else:  # XLA:CPU: op events on its thread pools name their program and instruction (hlo_module, hlo_op)
    ops = [(e.stats["hlo_op"], e) for e in events if e.stats.get("hlo_module") == "jit_step"]
    modules = []
    where = "/host:CPU, events with hlo_module 'jit_step'"
print(f"{jax.default_backend()}: {len(ops)} op events ({where})")
if modules:  # one event per execution of the program: the step time on the device
    print(f"step time (XLA Modules events): {sum(e.duration_ns for e in modules) / len(modules) / 1e3:.1f} µs "
          f"per step, {len(modules)} steps")
elif ops:  # the wall span of each execution (run_id): from its first op's start to its last op's end
    runs = collections.defaultdict(list)
    for _, e in ops:
        runs[e.stats["run_id"]].append(e)
    spans = [max(e.start_ns + e.duration_ns for e in r) - min(e.start_ns for e in r) for r in runs.values()]
    print(f"step wall span (first op to last op of a run_id): {sum(spans) / len(spans) / 1e3:.1f} µs "
          f"per step, {len(runs)} steps")
if ops:
    total = collections.defaultdict(float)
    for name, e in ops:
        total[name] += e.duration_ns / 1e3  # µs, summed over the 5 steps
    all_us = sum(total.values())
    print(f"{'XLA op':26s} {'summed op time, µs/step':>23s} {'share':>6s}  op_name in the compiled HLO")
    for name, us in sorted(total.items(), key=lambda kv: -kv[1])[:6]:
        print(f"{name[:26]:26s} {us / 5:23.1f} {us / all_us:6.1%}  {op_name.get(name, '(not found)')}")
    if jax.default_backend() == "cpu":  # checked on the CPU; other backends print only
        assert set(total) <= set(op_name)  # every op of the trace is an instruction of the compiled program
        scopes = " ".join(op_name[name] for name in total)
        assert "jvp(layer1)" in scopes and "transpose(jvp(layer1))" in scopes  # forward and backward
        assert "jvp(head)" in scopes and "transpose(jvp(head))" in scopes
assert b"jvp(layer1)" in xplane  # the profile keeps the HLO, op_name metadata included, for XProf
if jax.default_backend() == "cpu":
    assert ops and "layer1" not in timeline  # the CPU timeline names ops by instruction only
