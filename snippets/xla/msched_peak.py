"""The same jitted function compiled with each XLA:CPU scheduler type: the temporary memory differs."""
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # CPU by design: this page is about XLA:CPU's memory schedulers
import jax
import jax.numpy as jnp

N, CHAINS = 256, 6
ONE = N * N * 4  # bytes of one float32 N x N intermediate


def f(x):
    # Six independent chains; each keeps two N x N intermediates, a and b, until its sum.
    sums = []
    for i in range(CHAINS):
        a = jnp.sort(x * (i + 2.0), axis=0)
        b = jnp.sort(a + 1.0, axis=1)
        sums.append(jnp.sum(a * b))
    return jnp.stack(sums)


x = jax.random.normal(jax.random.key(0), (N, N))
temp, result = {}, {}
for kind in ("DEFAULT", "MEMORY_OPTIMIZED", "CONCURRENCY_OPTIMIZED"):
    options = {"xla_cpu_scheduler_type": f"CPU_SCHEDULER_TYPE_{kind}"}  # this function only
    compiled = jax.jit(f, compiler_options=options).lower(x).compile()
    temp[kind] = compiled.memory_analysis().temp_size_in_bytes
    result[kind] = compiled(x)
    print(f"{kind:<22} temp {temp[kind] / 2**20:5.2f} MiB = {temp[kind] / ONE:5.2f} intermediates")

# Memory-optimized: one chain at a time, so two intermediates are alive at once.
assert round(temp["MEMORY_OPTIMIZED"] / ONE) == 2
# Concurrency-optimized: every chain's a and b are alive together.
assert round(temp["CONCURRENCY_OPTIMIZED"] / ONE) == 2 * CHAINS
# The default is a policy that picks one of the two orders ...
assert temp["DEFAULT"] in (temp["MEMORY_OPTIMIZED"], temp["CONCURRENCY_OPTIMIZED"])
# ... and on this jaxlib it chose the concurrency-optimized schedule for this program.
assert temp["DEFAULT"] == temp["CONCURRENCY_OPTIMIZED"]
# Only the order changed, not the arithmetic.
assert all(jnp.allclose(r, result["DEFAULT"]) for r in result.values())
