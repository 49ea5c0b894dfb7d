"""Idle gaps between steps in a trace: float(loss) on every step against a loop that never waits."""
# The timings this program prints differ from run to run and from machine to machine.
import collections
import gzip
import json
import statistics
import tempfile
from pathlib import Path

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x):
    loss, g = jax.value_and_grad(lambda w: jnp.mean(jnp.tanh(x @ w) ** 2))(w)
    return w - 0.1 * g, loss


def traced_loop(w, x, sync):
    options = jax.profiler.ProfileOptions()
    options.python_tracer_level = 0
    with tempfile.TemporaryDirectory() as log_dir:
        with jax.profiler.trace(log_dir, profiler_options=options):
            losses = []
            for _ in range(20):
                w, loss = step(w, x)
                losses.append(float(loss) if sync else loss)  # float() waits for this step
            jax.block_until_ready(losses)
        return json.load(gzip.open(next(Path(log_dir).rglob("*.trace.json.gz"))))["traceEvents"]


def gaps_between_runs(events):
    runs = collections.defaultdict(list)  # run_id -> (start, end) of each XLA op of that execution
    for e in events:
        if e.get("ph") == "X" and e.get("args", {}).get("hlo_module") == "jit_step":  # XLA:CPU's op events
            runs[e["args"]["run_id"]].append((e["ts"], e["ts"] + e["dur"]))
    if not runs:  # a TPU's trace: one span per execution on the device's "XLA Modules" track
        modules = [e for e in events if e.get("ph") == "X" and e["name"].startswith("jit_step(")]
        runs = {i: [(e["ts"], e["ts"] + e["dur"])] for i, e in enumerate(modules)}
    spans = sorted((min(s for s, _ in ops), max(t for _, t in ops)) for ops in runs.values())
    return [b[0] - a[1] for a, b in zip(spans, spans[1:])]  # µs from one run's last op to the next's first


w = jax.random.normal(jax.random.key(0), (256, 256)) * 0.05
x = jax.random.normal(jax.random.key(1), (1024, 256))
for _ in range(2):
    w, loss = step(w, x)
loss.block_until_ready()
median = {}
for sync in (True, False):
    events = traced_loop(w, x, sync)
    gaps = gaps_between_runs(events)
    waits = sum(e.get("name") == "np.asarray(jax.Array)" for e in events)  # what float() calls
    median[sync] = statistics.median(gaps)
    label = "float(loss) every step" if sync else "no host sync"
    print(f"{label:24s} {len(gaps) + 1} runs, median gap {median[sync]:7.1f} µs, "
          f"{waits} np.asarray(jax.Array) events")
    assert len(gaps) == 19 and waits == (20 if sync else 0)
if jax.default_backend() == "cpu":
    assert median[True] > median[False]  # waiting on the host leaves the device idle between steps
