"""kb.run.snippet: what a snippet declares about itself, read from its text (one place for each mark).

1. **Timings.** A program whose output is a measurement carries the line ``TIMINGS`` as a comment
   (``is_timing``): the runner runs it alone, with nothing else on the machine, and
   ``tests/test_reproducible.py`` does not expect its output to repeat.
2. **CPU by design.** A program never sets ``JAX_PLATFORMS`` (so a copied program runs on the
   reader's GPU or TPU), except where the CPU is its subject; then the line that sets it carries
   ``MARKER`` and a reason (``pins``, ``cpu_by_design``). ``pins_own_process`` tells whether the pin
   is the program's own (set before it imports JAX), not a child process's.
3. **Starts JAX.** ``starts_jax``: whether a program imports JAX or a library built on it
   (``JAX_LIBRARIES``, the one list; so it may hold an accelerator); a PyTorch-only tab does not.
   ``starts_jax_in_children``: a program that imports no JAX itself but runs Python code that does
   in child processes (to compare flags or caches across processes); its children hold the
   accelerator, one after another.
4. **Its opening settings.** ``opening_settings``: the constant ``os.environ`` settings a program
   makes before it first imports a JAX library (``JAX_NUM_CPU_DEVICES`` for the multi-device
   programs), and the line after them: a shared process is started with them (``kb.run.schedule``).
5. **A fresh process.** A program whose output would not be the same in a process shared with
   other programs (it prints the process's own peak memory, say) carries ``FRESH`` with its reason
   (``# Runs in a fresh process: <reason>``): the scheduler never runs it in a shared one.

Why our own code: these are this project's conventions for its own programs.
"""

from __future__ import annotations

import ast
import re

TIMINGS = "# The timings this program prints differ from run to run and from machine to machine."
MARKER = "# CPU by design:"
SETS_PLATFORMS = re.compile(r"""JAX_PLATFORMS['"]?\s*[\]=,)]|config\.update\(\s*['"]jax_platforms['"]""")
FRESH = "# Runs in a fresh process:"
JAX_LIBRARIES = ("jax", "jaxlib", "flax", "optax", "orbax", "grain", "chex", "equinox")


def is_timing(text: str) -> bool:
    """Whether a snippet declares that it prints timings.

    >>> is_timing(f'\"\"\"x\"\"\"\\n{TIMINGS}\\nprint(1)\\n'), is_timing('print(1)')
    (True, False)
    """
    return any(line.strip() == TIMINGS for line in text.splitlines())


def masked_figures(text: str) -> str:
    """A timing program's output with every number masked (1,234 is one number: a rate can grow a
    thousands separator from one run to the next) and runs of spaces folded (a wider number shifts
    the padding): what two runs of it must share.

    >>> masked_figures("tokens/s: 1,234  (x1.5)") == masked_figures("tokens/s: 987 (x2.0)")
    True
    """
    return re.sub(r" +", " ", re.sub(r"\d+(?:,\d{3})*", "#", text))


def pins(source: str) -> list[tuple[int, str, str | None]]:
    """(line number, line, reason or None) for every line of ``source`` that sets ``JAX_PLATFORMS``.

    >>> pins('import os\\nos.environ.setdefault("JAX_PLATFORMS", "cpu")\\n')
    [(2, 'os.environ.setdefault("JAX_PLATFORMS", "cpu")', None)]
    >>> pins('env["JAX_PLATFORMS"] = "cpu"  # CPU by design: XLA:CPU flags\\n')[0][2]
    'XLA:CPU flags'
    >>> pins('env.update(JAX_PLATFORMS="cpu")  # CPU by design:\\n')[0][2] is None  # a marker needs a reason
    True
    >>> pins('jax.config.update("jax_platforms", "cpu")\\n')[0][0]
    1
    >>> pins('Set `JAX_PLATFORMS` before import\\nprint("JAX_PLATFORMS is read at import")\\n')
    []
    """
    found = []
    for number, line in enumerate(source.splitlines(), 1):
        code, _, comment = line.partition("#")
        if not SETS_PLATFORMS.search(code):
            continue
        reason = line.split(MARKER, 1)[1].strip() if MARKER in line else ""
        found.append((number, line.strip(), reason or None))
    return found


def cpu_by_design(source: str) -> bool:
    """Whether a program pins the CPU on purpose (a marked pin, with its reason)."""
    return any(reason for _, _, reason in pins(source))


def fresh(source: str) -> str | None:
    """Why a program must run in a fresh process (its ``FRESH`` line's reason), or None.

    >>> fresh("import resource  # Runs in a fresh process: it prints the process's peak memory\\n")
    "it prints the process's peak memory"
    >>> fresh("print(1)\\n") is None
    True
    """
    return next((line.split(FRESH, 1)[1].strip() or None for line in source.splitlines() if FRESH in line), None)


def opening_settings(source: str) -> tuple[tuple[tuple[str, str], ...], int] | None:
    """The constant environment settings a program makes before its first import of a JAX library
    (``os.environ[K] = V`` or ``os.environ.setdefault(K, V)``), and the line after them; None if it
    does not parse.

    >>> opening_settings("'Doc.'\\nimport os\\nos.environ.setdefault('JAX_NUM_CPU_DEVICES', '8')\\nimport jax\\nx = 1\\n")
    ((('JAX_NUM_CPU_DEVICES', '8'),), 3)
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    settings: list[tuple[str, str]] = []
    end = 0
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if any(n.split(".")[0] in JAX_LIBRARIES for n in names):
                break
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            call = node.value
            if not (isinstance(call.func, ast.Attribute) and call.func.attr == "setdefault"
                    and ast.unparse(call.func.value) == "os.environ" and len(call.args) == 2
                    and all(isinstance(a, ast.Constant) for a in call.args)):
                break
            settings.append((call.args[0].value, call.args[1].value))
        elif (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript)
              and ast.unparse(node.targets[0].value) == "os.environ" and isinstance(node.targets[0].slice, ast.Constant)
              and isinstance(node.value, ast.Constant)):
            settings.append((node.targets[0].slice.value, node.value.value))
        elif not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            break
        end = node.end_lineno or end
    return tuple(settings), end


def imports(source: str) -> set[str]:
    """The top-level packages a program imports anywhere in its text (not its children's strings).

    >>> sorted(imports("import os, jax.numpy as jnp\\nfrom flax import nnx\\nfrom . import x\\n"))
    ['flax', 'jax', 'os']
    """
    try:
        return _top_imports(ast.parse(source))
    except SyntaxError:
        return set()


def _top_imports(tree: ast.Module) -> set[str]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def starts_jax(source: str) -> bool:
    """Whether the program imports JAX or a library built on it (anywhere in its text).

    >>> starts_jax("import torch\\nprint(torch.ones(2))\\n"), starts_jax("from flax import nnx\\n")
    (False, True)
    """
    try:
        return bool(_top_imports(ast.parse(source)) & set(JAX_LIBRARIES))
    except SyntaxError:
        return True


CHILD_IMPORTS_JAX = re.compile(r"^\s*(import|from)\s+(" + "|".join(JAX_LIBRARIES) + r")\b", re.M)


def starts_jax_in_children(source: str) -> bool:
    """Whether the program imports no JAX itself but runs Python code that does, in child processes.

    >>> starts_jax_in_children("import subprocess, sys\\nsubprocess.run([sys.executable, '-c', 'import jax'])\\n")
    True
    >>> starts_jax_in_children("import torch\\n"), starts_jax_in_children("import subprocess\\nimport jax\\n")
    (False, False)
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    imports = _top_imports(tree)
    if imports & set(JAX_LIBRARIES) or "subprocess" not in imports:
        return False
    return any(isinstance(node, ast.Constant) and isinstance(node.value, str) and CHILD_IMPORTS_JAX.search(node.value)
               for node in ast.walk(tree))


def pins_own_process(source: str) -> bool:
    """Whether the program pins its own process to the CPU (before importing JAX), on purpose.

    A pin of a child's environment (``env["JAX_PLATFORMS"] = "cpu"`` for ``subprocess.run``) does
    not count: the program itself still starts the default backend.

    >>> pins_own_process('import os\\nos.environ["JAX_PLATFORMS"] = "cpu"  # CPU by design: flags\\nimport jax\\n')
    True
    >>> pins_own_process('import jax, os\\nenv = dict(os.environ, JAX_PLATFORMS="cpu")  # CPU by design: a child\\n')
    False
    """
    for _number, line, reason in pins(source):
        if reason and re.search(r"os\.environ(\[|\.setdefault\()\s*['\"]JAX_PLATFORMS['\"]|config\.update\(\s*['\"]jax_platforms['\"]", line):
            return True
    return False
