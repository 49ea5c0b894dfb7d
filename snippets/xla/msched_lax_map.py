"""Writing the repeated chain as lax.map keeps two intermediates alive under the default scheduler."""
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # CPU by design: this page is about XLA:CPU's memory schedulers
import jax
import jax.numpy as jnp

CHAINS = 6


def chain(x, scale):
    a = jnp.sort(x * scale, axis=0)
    b = jnp.sort(a + 1.0, axis=1)
    return jnp.sum(a * b)


def unrolled(x):  # a Python loop: six independent chains in one flat program
    return jnp.stack([chain(x, i + 2.0) for i in range(CHAINS)])


def mapped(x):  # lax.map: one loop body that runs six times, one chain after the other
    return jax.lax.map(lambda scale: chain(x, scale), jnp.arange(CHAINS) + 2.0)


# Compile only, for a large input: no 256 MiB array is ever allocated.
N = 8192
big = jax.ShapeDtypeStruct((N, N), jnp.float32)
ONE = N * N * 4  # bytes of one N x N intermediate
memory_optimized = {"xla_cpu_scheduler_type": "CPU_SCHEDULER_TYPE_MEMORY_OPTIMIZED"}
temp = {name: jax.jit(fn, compiler_options=options).lower(big).compile().memory_analysis().temp_size_in_bytes
        for name, fn, options in (("unrolled", unrolled, None),  # None: the default scheduler type
                                  ("unrolled, memory-optimized", unrolled, memory_optimized),
                                  ("mapped", mapped, None))}
for name, t in temp.items():
    print(f"{name:<26} temp {t / 2**30:5.2f} GiB = {t / ONE:5.2f} intermediates of {ONE // 2**20} MiB")
assert round(temp["unrolled"] / ONE) == 2 * CHAINS  # the pinned jaxlib's default did not back off at this size
assert round(temp["unrolled, memory-optimized"] / ONE) == 2  # six times less was on offer
assert round(temp["mapped"] / ONE) == 2  # the loop reuses its body's buffers

x = jax.random.normal(jax.random.key(0), (256, 256))  # the same numbers, at a small size
assert jnp.allclose(jax.jit(unrolled)(x), jax.jit(mapped)(x))
