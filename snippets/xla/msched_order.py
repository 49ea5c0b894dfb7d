"""The compiled HLO is scheduled: as_text() lists the entry instructions in the order each scheduler chose."""
import os
import re

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # CPU by design: this page is about XLA:CPU's memory schedulers
import jax
import jax.numpy as jnp

N, CHAINS = 256, 6


def f(x):
    sums = []
    for i in range(CHAINS):
        a = jnp.sort(x * (i + 2.0), axis=0)
        b = jnp.sort(a + 1.0, axis=1)
        sums.append(jnp.sum(a * b))
    return jnp.stack(sums)


def schedule(kind):
    """One letter per entry instruction, in schedule order: E elementwise, S sort, R reduction to a scalar."""
    options = {"xla_cpu_scheduler_type": f"CPU_SCHEDULER_TYPE_{kind}"}
    text = jax.jit(f, compiler_options=options).lower(jax.ShapeDtypeStruct((N, N), jnp.float32)).compile().as_text()
    assert "is_scheduled=true" in text.splitlines()[0]  # the module carries a schedule
    entry = text[text.index("\nENTRY"):].split("\n}")[0]
    letters = []
    for shape, op in re.findall(r"^  %\S+ = (\S+) ([\w-]+)\(", entry, re.M):  # ROOT lines start differently
        if op not in ("parameter", "constant"):
            letters.append("S" if op == "sort" else "R" if shape.startswith("f32[]") else "E")
    return "".join(letters)


memory, concurrency = schedule("MEMORY_OPTIMIZED"), schedule("CONCURRENCY_OPTIMIZED")
print("memory-optimized:     ", memory)
print("concurrency-optimized:", concurrency)

# Same instructions, different order.
assert sorted(memory) == sorted(concurrency)
# Memory-optimized finishes each chain (E S E S R) before starting the next one.
assert memory == "ESESR" * CHAINS
# Concurrency-optimized goes level by level: every chain's first step, then every chain's second...
assert concurrency == "".join(letter * CHAINS for letter in "ESESR")
