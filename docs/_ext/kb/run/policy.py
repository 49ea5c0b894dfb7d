"""kb.run.policy: which programs may run at the same time, on the machine the run is on.

A program that starts JAX takes the machine's accelerator. A GPU can be shared (the runner turns
off JAX's memory preallocation, ``kb.run.process.SHARING``), but a TPU cannot: libtpu lets one
process hold the chip, and a second one that opens it dies with a lockfile error instead of
falling back (observed on a TPU v5e, 2026-12-01). Opening the chip costs 8-10 s, so on a TPU it
also pays to open it once for many programs. The policy, in one place:

1. ``EXCLUSIVE``: the backends where one process at a time holds the device (``tpu``).
2. ``lane(source)``: ``"side"`` for a program that starts no accelerator (PyTorch or NumPy only
   and no child process that imports JAX, or JAX pinned to the CPU by design in its own process): it may run beside anything, on the
   host's other cores. ``"device"`` for every other program: on an exclusive backend these run one
   at a time.
3. ``batch_group(source)``: on an exclusive backend, device programs that can share one process
   run one after another in it (``kb.run.batch``), grouped by the environment their opening lines
   set before importing JAX (``os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")``: the process
   is started with it). ``None`` for a program that needs a process of its own: one that changes
   JAX's environment or platform later than its opening lines, or one that uses
   ``multiprocessing``. Timing programs form groups of their own, run when nothing else runs.

>>> lane("import torch\\nprint(torch.ones(1))\\n"), lane("import jax\\nprint(jax.devices())\\n")
('side', 'device')
>>> lane('import os\\nos.environ.setdefault("JAX_PLATFORMS", "cpu")  # CPU by design: XLA:CPU\\nimport jax\\n')
'side'
>>> batch_group('import os\\nos.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")\\nimport jax\\nprint(1)\\n')
(('JAX_NUM_CPU_DEVICES', '8'),)
>>> batch_group("import jax\\nprint(1)\\n"), batch_group('import jax\\nimport os\\nos.environ["XLA_FLAGS"] = "--x"\\n')
((), None)
"""

from __future__ import annotations

import ast
import re

from .snippet import JAX_LIBRARIES, pins_own_process, starts_jax

EXCLUSIVE = frozenset({"tpu"})
# An import of a JAX library anywhere in a program's text, its children's code (strings) included.
JAX_IMPORT = re.compile(r"\b(?:import|from)\s+(?:jax|jaxlib|flax|optax|orbax|grain|chex)\b")
LATE_SETTINGS = re.compile(r"os\.environ|putenv|jax_platforms|jax_num_cpu_devices|XLA_FLAGS|multiprocessing"
                           r"|jax\.distributed\.initialize")


def lane(source: str) -> str:
    """``"side"`` (starts no accelerator) or ``"device"``.

    A program that starts other Python processes is a device program even if it imports no JAX
    itself, when its children may open the device: when its text, code or strings, imports a JAX
    library anywhere (``xla/ccache_serialize.py`` compiles in one child and loads in the next; a
    child's code is a string of its parent, since every program is self-contained). One whose
    children run pip or PyTorch only (``install/mir_pip_config.py``, the Triton-interpreter tabs)
    runs beside the device.

    >>> lane("import subprocess, sys\\nsubprocess.run([sys.executable, '-c', 'import jax'])\\n")
    'device'
    >>> lane("import subprocess, sys\\nsubprocess.run([sys.executable, '-m', 'pip', 'config', 'list'])\\n")
    'side'
    """
    if pins_own_process(source):
        return "side"
    if starts_jax(source):
        return "device"
    if re.search(r"\bsubprocess\b|sys\.executable|multiprocessing", source) and JAX_IMPORT.search(source):
        return "device"
    return "side"


def _opening_environment(tree: ast.Module) -> tuple[tuple[tuple[str, str], ...], int]:
    """The constant environment settings before the first import of a JAX library, and the line after them."""
    settings: list[tuple[str, str]] = []
    end = 0
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            end = node.end_lineno or end
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if any(n.split(".")[0] in JAX_LIBRARIES for n in names):
                break
            end = node.end_lineno or end
            continue
        call = node.value if isinstance(node, ast.Expr) else None
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "setdefault"
                and ast.unparse(call.func.value) == "os.environ" and len(call.args) == 2
                and all(isinstance(a, ast.Constant) for a in call.args)):
            settings.append((call.args[0].value, call.args[1].value))
        elif (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript)
              and ast.unparse(node.targets[0].value) == "os.environ" and isinstance(node.targets[0].slice, ast.Constant)
              and isinstance(node.value, ast.Constant)):
            settings.append((node.targets[0].slice.value, node.value.value))
        else:
            break
        end = node.end_lineno or end
    return tuple(settings), end


def batch_group(source: str) -> tuple[tuple[str, str], ...] | None:
    """The environment of the shared process this program may run in, or None (a process of its own)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    settings, end = _opening_environment(tree)
    rest = "\n".join(source.splitlines()[end:])
    if LATE_SETTINGS.search("\n".join(line.partition("#")[0] for line in rest.splitlines())):
        return None
    return settings
