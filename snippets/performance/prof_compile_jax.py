"""Trace the first call of a jitted function: the lowering and XLA's compile passes show on the timeline."""
# The timings this program prints differ from run to run and from machine to machine.
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


w = jnp.full((128, 128), 0.01)
x = jax.random.normal(jax.random.key(0), (256, 128))
options = jax.profiler.ProfileOptions()
options.python_tracer_level = 0
with tempfile.TemporaryDirectory() as log_dir:
    with jax.profiler.trace(log_dir, profiler_options=options):
        for label in ("first call", "second call"):
            with jax.profiler.TraceAnnotation(label):
                _, loss = step(w, x)  # the same arguments: the second call hits the cache
                loss.block_until_ready()
    events = json.load(gzip.open(next(Path(log_dir).rglob("*.trace.json.gz"))))["traceEvents"]

spans = [e for e in events if e.get("ph") == "X"]
WATCH = ("lower_sharding_computation", "backend_compile_and_load", "CpuCompiler::RunBackend",
         "JitCompiler::Compile", "PjitFunction(matmul)", "PjitFunction(tanh)")
for label in ("first call", "second call"):
    call = next(e for e in spans if e["name"] == label)
    inside = [e for e in spans if call["ts"] <= e["ts"] <= call["ts"] + call["dur"] and e is not call]
    passes = {e["name"] for e in inside  # XLA's HLO pass pipelines (a TPU also names its launch so)
              if e["name"].endswith("(jit_step)") and "Execute" not in e["name"]}
    print(f"{label}: {call['dur'] / 1e3:.1f} ms, {len(passes)} HLO pass pipelines named '... (jit_step)'")
    for name in WATCH:
        durations = [e["dur"] for e in inside if e["name"] == name]
        if durations:
            print(f"   {name:30s} {max(durations) / 1e3:8.2f} ms")
    names = {e["name"] for e in inside}
    if label == "first call":
        assert {"lower_sharding_computation", "backend_compile_and_load"} <= names  # JAX's annotations
        assert {"PjitFunction(matmul)", "PjitFunction(tanh)"} <= names  # jnp's own jitted functions, traced
        assert passes  # XLA's pipelines: "simplification (jit_step)", ...
        first = call["dur"]
        took = {name: max(e["dur"] for e in inside if e["name"] == name) for name in WATCH[:2]}
    else:
        assert not (names & set(WATCH)) and not passes  # cached: no tracing, lowering or compiling
        assert call["dur"] < first
if jax.default_backend() == "cpu":  # XLA's compilation outlasts JAX's lowering by far here
    assert took["backend_compile_and_load"] > took["lower_sharding_computation"]
    assert any(e["name"] == "CpuCompiler::RunBackend" for e in spans)  # XLA:CPU's code generation
