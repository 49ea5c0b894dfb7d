"""Top XLA ops by time from a trace, each tied to its jax.named_scope through the compiled HLO."""
# The timings this program prints differ from run to run and from machine to machine.
import collections
import gzip
import json
import re
import tempfile
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
    trace_text = gzip.open(next(Path(log_dir).rglob("*.trace.json.gz"))).read().decode()
    xplane = next(Path(log_dir).rglob("*.xplane.pb")).read_bytes()  # XProf's file, HLO included
events = json.loads(trace_text)["traceEvents"]
print("'layer1' in the trace.json:", "layer1" in trace_text, "  in the xplane.pb:", b"layer1" in xplane)

ops = [e for e in events if e.get("ph") == "X" and e.get("args", {}).get("hlo_module") == "jit_step"]
print(f"{jax.default_backend()}: {len(ops)} op events that name their program and instruction (hlo_module, hlo_op)")
if ops:  # XLA:CPU's op events do; a TPU v5e's device ops carried other arguments
    total = collections.defaultdict(float)
    for e in ops:
        total[e["args"]["hlo_op"]] += e["dur"]  # µs, summed over the 5 steps
    all_us = sum(total.values())
    print(f"{'XLA op':26s} {'µs/step':>8s} {'share':>6s}  op_name in the compiled HLO")
    for name, us in sorted(total.items(), key=lambda kv: -kv[1])[:6]:
        print(f"{name:26s} {us / 5:8.1f} {us / all_us:6.1%}  {op_name[name]}")
    assert set(total) <= set(op_name)  # every op of the trace is an instruction of the compiled program
    scopes = " ".join(op_name[name] for name in total)
    assert "jvp(layer1)" in scopes and "transpose(jvp(layer1))" in scopes  # forward and backward
    assert "jvp(head)" in scopes and "transpose(jvp(head))" in scopes
assert b"jvp(layer1)" in xplane  # the profile keeps the HLO, op_name metadata included, for XProf
if jax.default_backend() == "cpu":
    assert ops and "layer1" not in trace_text  # the CPU timeline names ops by instruction only
