"""What XLA does with GPU flags on another backend, and with the removed pipelining flag names."""
import os
import subprocess
import sys

import jax
import jax.numpy as jnp


def f(w, x):
    return jnp.tanh(x @ w).sum()


w, x = jnp.ones((64, 64)), jnp.ones((8, 64))
GPU_FLAGS = {
    "xla_gpu_enable_latency_hiding_scheduler": True,
    "xla_gpu_autotune_level": 0,
    "xla_gpu_deterministic_ops": True,
    "xla_gpu_enable_command_buffer": "",
    "xla_gpu_all_reduce_combine_threshold_bytes": 2**28,
}
default = jax.jit(f).lower(w, x).compile()
gpu = jax.jit(f, compiler_options=GPU_FLAGS).lower(w, x).compile()
same = gpu.as_text().split("ENTRY")[1] == default.as_text().split("ENTRY")[1]
print(jax.default_backend(), "backend: GPU flags accepted | same program:", same)
assert jnp.allclose(gpu(w, x), default(w, x))
if jax.default_backend() == "cpu":  # XLA:CPU never reads the xla_gpu_* options
    assert same

# The old booleans are gone from DebugOptions: compiler_options rejects them ...
try:
    jax.jit(f, compiler_options={"xla_gpu_enable_pipelined_all_reduce": True}).lower(w, x).compile()
except jax.errors.JaxRuntimeError as err:
    print("compiler_options:", str(err).splitlines()[0])
    assert "No such compile option" in str(err)
else:
    raise AssertionError("expected a JaxRuntimeError")

# ... while XLA_FLAGS still parses them and sets the new enum flag instead.
# The same child also removes one command type from the default list with a "-" prefix.
code = ("from jax._src import compiler\n"
        "o = compiler.get_compile_options(num_replicas=1, num_partitions=1)\n"
        "print(repr(o.executable_build_options.debug_options))")
child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=dict(os.environ, XLA_FLAGS="--xla_gpu_enable_pipelined_all_reduce=true "
                                                      "--xla_gpu_enable_command_buffer=-CUDNN"))
lines = child.stdout.splitlines()
mode = [line for line in lines if line.startswith("xla_gpu_pipeline_all_reduce:")]
types = [line.split(": ")[1] for line in lines if line.startswith("xla_gpu_enable_command_buffer:")]
print("XLA_FLAGS=--xla_gpu_enable_pipelined_all_reduce=true ->", mode[0])
print("XLA_FLAGS=--xla_gpu_enable_command_buffer=-CUDNN ->", ",".join(types))
assert child.returncode == 0 and mode == ["xla_gpu_pipeline_all_reduce: COLLECTIVE_PIPELINING_MODE_ON"]
assert "CUDNN" not in types and "FUSION" in types
