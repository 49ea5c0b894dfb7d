"""XLA_FLAGS=--xla_dump_to=DIR dumps every compiled module; XLA reads the variable once per process."""
import os
import subprocess
import sys
import tempfile

CHILD = """
import os, sys
import numpy as np
import jax
import jax.numpy as jnp

def first(x):
    return jnp.sin(x) * 2 + 1

def second(x):
    return jnp.cos(x)

def third(x):
    return jnp.tanh(x)

x = np.ones(8, np.float32)  # a NumPy input, so that no other small program is compiled
jax.devices()  # JAX creates its backend here, and XLA reads XLA_FLAGS
os.environ["XLA_FLAGS"] = "--xla_dump_to=" + sys.argv[1]  # too late already
jax.jit(first)(x).block_until_ready()
os.environ["XLA_FLAGS"] = "--xla_dump_to=" + sys.argv[2]  # after a computation: too late too
jax.jit(second)(x).block_until_ready()
jax.jit(third, compiler_options={"xla_dump_to": sys.argv[3]})(x).block_until_ready()  # one function
print(jax.default_backend())
"""

with tempfile.TemporaryDirectory() as tmp:
    dump, *late, per_function = (os.path.join(tmp, d) for d in ("dump", "late1", "late2", "third"))
    env = dict(os.environ, XLA_FLAGS=f"--xla_dump_to={dump}")  # set before the child starts JAX
    backend = subprocess.run([sys.executable, "-c", CHILD, *late, per_function], env=env, check=True,
                             stdout=subprocess.PIPE, text=True).stdout.strip()
    names = sorted(os.listdir(dump))
    print(f"backend {backend}: {len(names)} entries in the dump folder; those of jit(first):")
    for name in (n for n in names if ".jit_first" in n):
        path = os.path.join(dump, name)
        print("  ", name + ("/ " + ", ".join(sorted(os.listdir(path))) if os.path.isdir(path) else ""))
    optimized = [n for n in names if ".jit_first." in n and n.endswith("after_optimizations.txt")]
    with open(os.path.join(dump, optimized[0])) as f:
        fusions = f.read().count(" fusion(")
    print("fusion calls in", optimized[0] + ":", fusions)
    print("modules in the dump folder:", sorted({n.split(".")[1] for n in names}))
    print("folders named later exist:", [os.path.exists(d) for d in late])
    print("modules in the compiler_options folder:", sorted({n.split(".")[1] for n in os.listdir(per_function)}))

    def dumped(module, kind):  # module_<number>.<module>[.<more, on a TPU>].<kind>
        return any(n.split(".")[1] == module and n.endswith(kind) for n in names)
    assert dumped("jit_first", ".before_optimizations.txt")  # HLO before XLA's passes
    assert len(optimized) == 1 and fusions >= 1  # ... and after them, fused
    assert dumped("jit_second", ".before_optimizations.txt")  # still the first folder
    assert not any(os.path.exists(d) for d in late)  # changing XLA_FLAGS in the running process did nothing
    assert {n.split(".")[1] for n in os.listdir(per_function)} == {"jit_third"}  # one function's dump
    if backend == "cpu":  # XLA:CPU's file names; a GPU's optimized HLO is named after the GPU
        assert "jit_third" in {n.split(".")[1] for n in names}  # some of its files went to both folders
        assert optimized[0].endswith(".jit_first.cpu_after_optimizations.txt")
        for report in ("-buffer-assignment.txt", "-live-range.txt", "-memory-usage-report.txt"):
            assert any(n.endswith(".jit_first.cpu_after_optimizations" + report) for n in names)
        assert all(n.startswith("module_") for n in names)  # module_<number>.<function>...
        assert os.path.isfile(os.path.join(dump, "module_0000.jit_first", "module.mlir"))  # the StableHLO XLA received
        assert any(".jit_first.obj-file." in n and n.endswith(".o") for n in names)  # the kernel's machine code
