"""Set XLA:GPU command buffers (CUDA graphs) for one jax.jit: the default list plus WHILE."""
import os

import jax
import jax.numpy as jnp
from jax._src import compiler  # private module: get_compile_options builds what jax.jit sends to XLA


def many_small_steps(h, xs):  # a scan of tiny steps: on a GPU, a few small kernels per step
    return jax.lax.scan(lambda h, x: (jnp.tanh(h * 0.9 + x), None), h, xs)[0]


# The installed jaxlib's defaults (compiled in, then XLA_FLAGS on top), read from the DebugOptions.
options = compiler.get_compile_options(num_replicas=1, num_partitions=1)  # keep it alive while read
text = repr(options.executable_build_options.debug_options)
values = {}
for line in text.splitlines():
    if ": " in line:
        name, value = line.split(": ", 1)
        values.setdefault(name, []).append(value.strip('"'))
default_types = values.get("xla_gpu_enable_command_buffer", [])
while_types = default_types + ["WHILE"]  # the defaults, plus loops
print("default command types:", ",".join(default_types))
print("while profiling:", values.get("xla_enable_command_buffers_during_profiling", ["false"])[0])

h, xs = jnp.zeros(16), jax.random.normal(jax.random.key(0), (100, 16))
settings = {
    "off": {"xla_gpu_enable_command_buffer": ""},  # an empty list records nothing
    "defaults + WHILE": {"xla_gpu_enable_command_buffer": ",".join(while_types),
                         "xla_gpu_graph_min_graph_size": 1},  # capture even a region of one operation
}
reference = jax.jit(many_small_steps)(h, xs)
for name, options in settings.items():
    out = jax.jit(many_small_steps, compiler_options=options)(h, xs)
    print(f"{name}: compiled and ran on {jax.default_backend()}, same result: {bool(jnp.allclose(out, reference))}")
    assert jnp.allclose(out, reference, atol=1e-6)  # the schedule of launches changes, not the numbers

# XLA_FLAGS also takes "+WHILE" (add to the default list); compiler_options wants the full list.
try:
    jax.jit(many_small_steps, compiler_options={"xla_gpu_enable_command_buffer": "+WHILE"})(h, xs)
except jax.errors.JaxRuntimeError as err:
    message = str(err)
print("compiler_options with '+WHILE':", message)
assert "is not a valid enum value" in message
if not os.environ.get("XLA_FLAGS"):  # the compiled-in defaults, unless the reader set flags
    assert "CONDITIONAL" in default_types and "WHILE" not in default_types
    assert values.get("xla_enable_command_buffers_during_profiling", ["false"]) == ["false"]
