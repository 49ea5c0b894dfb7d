"""Setting an XLA flag per function (compiler_options) and per process (XLA_FLAGS), and effort levels."""
import os
import subprocess
import sys

import jax
import jax.numpy as jnp

SOURCE = """
import jax, jax.numpy as jnp
def f(x):
    return jnp.sin(x) * 2.0 + 1.0
def kernels(compiled):  # the fused kernels the entry computation calls
    return compiled.as_text().split("ENTRY")[1].count(" fusion(")
"""
exec(SOURCE)  # the same f and helper in this process


def child(flags, code):
    """XLA reads XLA_FLAGS once, when JAX starts its backend: so a new process."""
    return subprocess.run([sys.executable, "-c", SOURCE + code], capture_output=True, text=True,
                          env=dict(os.environ, XLA_FLAGS=flags))


# The new processes run first, before this one starts its backend: a TPU chip, for one, can be
# opened by only one process at a time.
run = child("--xla_disable_hlo_passes=fusion", "print(kernels(jax.jit(f).lower(jnp.ones(1000)).compile()))")
typo = child("--xla_disable_hlo_pass=fusion", "jnp.ones(1)")  # misspelled: no final s

x = jnp.linspace(0.0, 1.0, 1000)
NO_FUSION = {"xla_disable_hlo_passes": "fusion"}  # skip XLA's fusion pass

default = jax.jit(f).lower(x).compile()
at_compile = jax.jit(f).lower(x).compile(compiler_options=NO_FUSION)  # per compilation
at_jit = jax.jit(f, compiler_options=NO_FUSION)  # per function, reused by every call
print("kernels: default", kernels(default), "| compile(compiler_options=...)", kernels(at_compile),
      "| jit(..., compiler_options=...)", kernels(at_jit.lower(x).compile()))
assert kernels(at_compile) == kernels(at_jit.lower(x).compile())
if jax.default_backend() == "cpu":  # XLA:CPU fuses the three operations into one kernel
    assert kernels(default) == 1 and kernels(at_compile) == 5
assert jnp.allclose(at_jit(x), default(x))  # same numbers, different kernels

print("XLA_FLAGS=--xla_disable_hlo_passes=fusion: kernels", run.stdout.strip())
assert int(run.stdout) == kernels(at_compile)
print("misspelled in XLA_FLAGS: exit code", typo.returncode, "|",
      typo.stderr[typo.stderr.index("Unknown flag"):].splitlines()[0])
assert typo.returncode != 0
try:
    jax.jit(f, compiler_options={"xla_disable_hlo_pass": "fusion"}).lower(x).compile()
except jax.errors.JaxRuntimeError as err:
    print("misspelled in compiler_options:", str(err).splitlines()[0])
    assert "No such compile option" in str(err)
else:
    raise AssertionError("expected a JaxRuntimeError")

# Effort levels: an enum (or its name), per function or for the whole process.
fast = jax.jit(f, compiler_options={"optimization_level": jax.CompilerEffortLevel.O0,
                                    "memory_fitting_level": "O1"})
assert jnp.allclose(fast(x), default(x))
jax.config.update("jax_optimization_level", "O1")  # every later compilation in this process
assert jnp.allclose(jax.jit(lambda v: f(v) - 1.0)(x), default(x) - 1.0)
print("effort levels:", [level.name for level in jax.CompilerEffortLevel])
assert "jax_exec_time_optimization_effort" not in jax.config.values  # the old float option is gone
try:
    jax.jit(f, compiler_options={"exec_time_optimization_effort": 0.5}).lower(x).compile()
except jax.errors.JaxRuntimeError as err:
    print("old float option:", str(err).splitlines()[0])
    assert "No such compile option" in str(err)
else:
    raise AssertionError("expected a JaxRuntimeError")
