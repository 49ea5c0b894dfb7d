"""A real out-of-memory error on an accelerator and its report, and the (8, 128) tiles that pad a TPU's arrays."""
import math

import jax
import jax.numpy as jnp

backend = jax.default_backend()

# 1. Tile padding: the bytes that XLA plans for one float32 argument of shape (256, 10).
y = jax.ShapeDtypeStruct((256, 10), jnp.float32)
planned = jax.jit(lambda y: 2 * y).lower(y).compile().memory_analysis().argument_size_in_bytes
print(f"{backend}: f32[256,10] has {256 * 10 * 4} bytes of data; memory_analysis plans {planned} bytes for it")
assert planned >= 256 * 10 * 4
if backend == "cpu":
    assert planned == 256 * 10 * 4  # the CPU stores the array as it is, unpadded

# 2. A jitted function whose output alone is larger than the device's memory.
n = 70000  # (70000, 70000) float32: 19.6 GB, more than the 16.9 GB that a TPU v5e's allocator offers
stats = jax.devices()[0].memory_stats()  # None on the CPU
if stats and "bytes_limit" in stats:  # a device with more memory gets a larger n
    n = max(n, math.isqrt(int(1.1 * stats["bytes_limit"]) // 4) + 1)
outer = jax.jit(lambda a: jnp.outer(a, a))  # an (n, n) output from an (n,) input
a = jax.ShapeDtypeStruct((n,), jnp.float32)

if backend == "cpu":
    # Never run it here: the CPU has no fixed device memory, so the run would take the host's RAM.
    # Lowering and compiling allocate nothing, and the plan shows the size of the output.
    output = outer.lower(a).compile().memory_analysis().output_size_in_bytes
    print(f"cpu: no fixed device memory, so this program does not run the ({n}, {n}) function here;")
    print(f"its compiled plan has an output of {output / 1e9:.1f} GB; the error report comes from the TPU run")
    assert output == n * n * 4 > 16.9e9
else:
    limit = stats.get("bytes_limit") if stats else None
    print(f"{backend}: bytes_limit {limit}; asking for a ({n}, {n}) float32 output, {n * n * 4 / 1e9:.1f} GB")
    stage = "compiling"
    try:
        compiled = outer.lower(a).compile()
        stage = "running"
        result = compiled(jnp.ones(n, jnp.float32))
        result.block_until_ready()
        message = None
    except Exception as error:  # jax.errors.JaxRuntimeError where the allocation fails
        message = f"{type(error).__name__}: {error}"
    assert message is not None, "the too-large output fitted: nothing to report"
    print(f"the error came while {stage}; the first lines of its message:")
    print("\n".join(message.splitlines()[:25]))
    assert "RESOURCE_EXHAUSTED" in message
    after = jnp.ones(3).sum()  # the process goes on computing after the error
    print("after the error:", after)
    assert after == 3
