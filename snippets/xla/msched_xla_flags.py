"""Choosing the XLA:CPU scheduler for a whole process with XLA_FLAGS, and what a wrong flag does."""
import os
import subprocess
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # CPU by design: the flags below are XLA:CPU's; children inherit it
import jax
import jax.numpy as jnp

SOURCE = """
import jax, jax.numpy as jnp
def f(x):
    return jnp.stack([jnp.sum(jnp.sort(x * s, axis=0) * x) for s in (2.0, 3.0, 4.0)])
def compile_f(**options):
    return jax.jit(f, compiler_options=options).lower(jnp.ones((256, 256))).compile()
def temp_bytes(**options):
    return compile_f(**options).memory_analysis().temp_size_in_bytes
"""
exec(SOURCE)  # the same f and helpers in this process, where XLA_FLAGS is not set


def child(flags):
    """A new process: XLA reads XLA_FLAGS once, when JAX first starts its backend."""
    code = SOURCE + "print(temp_bytes())"
    return subprocess.run([sys.executable, "-c", code], env=dict(os.environ, XLA_FLAGS=flags),
                          capture_output=True, text=True)


default = temp_bytes()
memory = int(child("--xla_cpu_scheduler_type=CPU_SCHEDULER_TYPE_MEMORY_OPTIMIZED").stdout)
old_flag = int(child("--xla_cpu_enable_concurrency_optimized_scheduler=false").stdout)
print("temp bytes: default", default, "| memory-optimized", memory, "| old boolean flag", old_flag)
assert memory < default
assert old_flag == memory  # the deprecated boolean sets the same scheduler type

typo = child("--xla_cpu_scheduler=CPU_SCHEDULER_TYPE_MEMORY_OPTIMIZED")  # misspelled flag name
message = typo.stderr[typo.stderr.index("Unknown flag"):].splitlines()[0]
print("misspelled flag: exit code", typo.returncode, "|", message)
assert typo.returncode != 0

# Per function, a wrong value is an ordinary Python exception instead.
try:
    temp_bytes(xla_cpu_scheduler_type="MEMORY")
except jax.errors.JaxRuntimeError as err:
    print("wrong value:", str(err).splitlines()[0])
    assert "is not a valid enum value" in str(err)
else:
    raise AssertionError("expected a JaxRuntimeError")

# The GPU's latency-hiding scheduler flag is accepted on the CPU and changes nothing there.
lhs = compile_f(xla_gpu_enable_latency_hiding_scheduler=True)
assert lhs.memory_analysis().temp_size_in_bytes == default
assert lhs.as_text().split("ENTRY")[1] == compile_f().as_text().split("ENTRY")[1]  # same schedule
