"""Live intermediate bytes after each step of the two XLA:CPU schedules, read off the scheduled HLO."""
import os
import re

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # CPU by design: this page is about XLA:CPU's memory schedulers
import jax
import jax.numpy as jnp
import matplotlib.pyplot as plt

N, CHAINS = 256, 6
ONE = N * N * 4  # bytes of one float32 N x N intermediate


def f(x):
    sums = []
    for i in range(CHAINS):
        a = jnp.sort(x * (i + 2.0), axis=0)
        b = jnp.sort(a + 1.0, axis=1)
        sums.append(jnp.sum(a * b))
    return jnp.stack(sums)


def live_after_each_step(text):
    """Bytes of values defined so far that a later instruction still reads (inputs and output excluded)."""
    entry = text[text.index("\nENTRY"):].split("\n}")[0]
    sizes, last_use = {}, {}  # every value of this program is float32; the ROOT line is the output
    for step, (name, dims, op, args) in enumerate(
            re.findall(r"^  %(\S+) = f32\[([\d,]*)\]\S* ([\w-]+)\((.*)", entry, re.M)):
        for used in re.findall(r"%([\w.-]+)", args):
            last_use[used] = step
        count = 1
        for d in filter(None, dims.split(",")):
            count *= int(d)
        sizes[name] = (step, 0 if op == "parameter" else 4 * count)  # (defined at, bytes)
    steps = len(sizes)
    return [sum(size for name, (start, size) in sizes.items() if start <= t < last_use.get(name, -1))
            for t in range(steps)]


plt.figure(figsize=(6, 3.2))
for kind, style in (("MEMORY_OPTIMIZED", "o-"), ("CONCURRENCY_OPTIMIZED", "s-")):
    options = {"xla_cpu_scheduler_type": f"CPU_SCHEDULER_TYPE_{kind}"}
    compiled = jax.jit(f, compiler_options=options).lower(jax.ShapeDtypeStruct((N, N), jnp.float32)).compile()
    live = live_after_each_step(compiled.as_text())
    temp = compiled.memory_analysis().temp_size_in_bytes
    print(f"{kind:<22} peak of the curve {max(live) / ONE:5.2f}, temp_size_in_bytes {temp / ONE:5.2f} intermediates")
    # The curve's peak is what buffer assignment reserved (up to a few scalars).
    assert abs(max(live) - temp) < 0.01 * ONE
    assert round(max(live) / ONE) == {"MEMORY_OPTIMIZED": 2, "CONCURRENCY_OPTIMIZED": 2 * CHAINS}[kind]
    plt.plot([v / ONE for v in live], style, markersize=3, label=kind.lower().replace("_", "-"))

plt.xlabel("step in the schedule")
plt.ylabel("live intermediates (N x N arrays)")
plt.title("Same program, two instruction orders")
plt.legend()
plt.tight_layout()
plt.show()
