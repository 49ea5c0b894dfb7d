"""Reading the pinned jaxlib's defaults for XLA:GPU flags from the installed package."""
import os
import subprocess
import sys

import jax
from jax._src import compiler  # private module: get_compile_options builds what jax.jit sends to XLA

# The DebugOptions that jax.jit passes to XLA: compiled-in defaults, then XLA_FLAGS on top.
options = compiler.get_compile_options(num_replicas=1, num_partitions=1)
text = repr(options.executable_build_options.debug_options)  # protobuf text format
values = {}
for line in text.splitlines():
    if ": " in line:
        name, value = line.split(": ", 1)
        values.setdefault(name, []).append(value.strip('"'))

FLAGS = [
    "xla_gpu_enable_latency_hiding_scheduler", "xla_gpu_enable_command_buffer",
    "xla_gpu_autotune_level", "xla_gpu_enable_triton_gemm",
    "xla_gpu_all_reduce_combine_threshold_bytes", "xla_gpu_all_gather_combine_threshold_bytes",
    "xla_gpu_reduce_scatter_combine_threshold_bytes", "xla_gpu_pipeline_all_reduce",
    "xla_gpu_pipeline_all_gather", "xla_gpu_pipeline_reduce_scatter",
    "xla_gpu_memory_limit_slop_factor", "xla_gpu_deterministic_ops",
]
# Text format leaves out a field that holds false/0; compiling with the name proves it exists.
jax.jit(lambda x: x + 1, compiler_options={"xla_gpu_deterministic_ops": False,
        "xla_gpu_enable_latency_hiding_scheduler": False}).lower(1.0).compile()
defaults = {name: ",".join(values.get(name, ["false"])) for name in FLAGS}
for name in FLAGS:
    print(f"{name:48} {defaults[name]}")

build = options.executable_build_options
effort = (jax.CompilerEffortLevel(build.optimization_level).name,
          jax.CompilerEffortLevel(build.memory_fitting_level).name)
print("optimization_level", effort[0], "| memory_fitting_level", effort[1])
backends = values["xla_gpu_experimental_autotune_backends"]
print("autotune backends:", ",".join(backends))

if not os.environ.get("XLA_FLAGS"):  # the compiled-in defaults, unless the reader set flags
    assert defaults["xla_gpu_enable_latency_hiding_scheduler"] == "false"
    assert defaults["xla_gpu_deterministic_ops"] == "false"
    assert defaults["xla_gpu_autotune_level"] == "4"
    assert defaults["xla_gpu_enable_triton_gemm"] == "true"
    assert defaults["xla_gpu_memory_limit_slop_factor"] == "95"
    assert set(values["xla_gpu_enable_command_buffer"]) == {
        "FUSION", "CUBLAS", "CUBLASLT", "CUDNN", "CUSTOM_CALL", "COLLECTIVES_KERNEL",
        "CONDITIONAL", "DYNAMIC_SLICE_FUSION"}
    thresholds = {defaults[n] for n in FLAGS if n.endswith("combine_threshold_bytes")}
    assert thresholds == {str(30 * 2**20 + 7)}  # 30 MiB (+7) for all three combiners
    assert defaults["xla_gpu_pipeline_all_reduce"] == "COLLECTIVE_PIPELINING_MODE_DEFAULT"
    assert defaults["xla_gpu_pipeline_all_gather"] == "COLLECTIVE_PIPELINING_MODE_DEFAULT"
    assert defaults["xla_gpu_pipeline_reduce_scatter"] == "COLLECTIVE_PIPELINING_MODE_ON"
    assert effort == ("UNKNOWN", "O2")
    assert {"CUBLASLT", "CUDNN", "TRITON", "BLOCK_LEVEL_EMITTER", "NATIVE_EMITTER"} <= set(backends)
    # An experimental, cross-platform list: ROCm's and the CPU's backends are in it too.
    assert {"HIPBLASLT", "MIOPEN", "YNNPACK", "BLOCK_LEVEL_EMITTER_CPU", "TENSOR_IR"} <= set(backends)

# XLA_FLAGS=--help prints the flag table and exits, but the log message that carries it is cut off.
child = subprocess.run([sys.executable, "-c", "import jax; jax.numpy.ones(1)"], capture_output=True, text=True,
                       env=dict(os.environ, XLA_FLAGS="--help",
                                JAX_PLATFORMS="cpu"))  # CPU by design: this process may hold the accelerator
listed = [line for line in child.stderr.splitlines() if line.startswith("\t--xla_")]
print("--help: exit code", child.returncode, "|", len(listed), "flags listed of", len(values))
assert child.returncode != 0 and 0 < len(listed) < len(values)  # the table started, then was cut off
assert "--xla_" in child.stderr  # it failed printing the flags, not for another reason
