"""kb.run.process: the process a snippet runs in, as a reader runs it, and the runner's version.

1. A snippet's process is a fresh interpreter (the build's own) running the child script
   ``CHILD`` (``kb/run/child.py``, whose docstring says the little it adds: the snippet's own file
   name in tracebacks, figures as SVG, a note of what it ran with), with deprecation,
   pending-deprecation and future warnings as errors (``WARNINGS_AS_ERRORS``). A fresh process
   (``kb.run.runner``) and a shared one (``kb.run.batch``) both start it with ``child_command``;
   ``precision`` (a ``kb.run.precision`` mode, for ``nox -s precision``) has the child install that
   emulation first.
2. ``reader_environment()``: the build's environment without any ``JAX_*``, ``XLA_*``, ``KB_*`` or
   ``TQDM_*`` variable (``SCRUBBED``) but with the platform's ``sharing`` settings
   (``kb.run.platforms``: programs share one GPU here, a reader's does not).
3. ``_kill(pid)`` stops a child and everything it started (its session's process group): a
   program still running after its timeout, a shared worker that does not end.
4. ``RUNNER`` is the runner's version, part of every record's key (``kb.run.store.record_key``):
   it changes when these settings, the child script or the shared worker change, and then every
   snippet runs again.

These constants are a module of their own, below both the record store (``kb.run.store``, which
names a record by ``RUNNER``) and the runners (``kb.run.runner``, ``kb.run.batch``), so that
neither imports the other for them.

Why our own code: a snippet is a script, and a reader runs it with ``python``; these are the
conditions of that run, which no executor (nbclient, jupyter-cache) states for a script.
"""

from __future__ import annotations

import hashlib
import os
import signal
import sys
from pathlib import Path

from .platforms import PLATFORMS, current

CHILD = Path(__file__).with_name("child.py")
WARNINGS_AS_ERRORS = ("-W", "error::DeprecationWarning", "-W", "error::FutureWarning",
                      "-W", "error::PendingDeprecationWarning")
SCRUBBED = ("JAX_", "XLA_", "KB_", "TQDM_")
RUNNER = "5-" + hashlib.sha256(CHILD.read_bytes() + Path(__file__).with_name("batch.py").read_bytes()
                               + repr((WARNINGS_AS_ERRORS, SCRUBBED, [(n, r.sharing) for n, r in PLATFORMS.items()])).encode()).hexdigest()[:12]


def child_command(*arguments: str, precision: str | None = None) -> list[str]:
    """The command line that starts the child script with ``arguments``.

    >>> child_command("a.py", "n", "notes")[-3:] == ["a.py", "n", "notes"]
    True
    >>> child_command("a.py", "n", "notes", precision="bf16")[-5:-3]
    ['--precision', 'bf16']
    """
    return [sys.executable, *WARNINGS_AS_ERRORS, str(CHILD), *(("--precision", precision) if precision else ()), *arguments]


def reader_environment(base: dict[str, str] | None = None, platform=None) -> dict[str, str]:
    """The environment a snippet runs in: the build's, without the build's own settings.

    >>> sorted(reader_environment({"PATH": "/bin", "JAX_PLATFORMS": "cpu", "KB_X": "1", "XLA_FLAGS": "-x"}, PLATFORMS["gpu"]))
    ['PATH', 'XLA_PYTHON_CLIENT_PREALLOCATE']
    """
    base = os.environ if base is None else base
    return {**{k: v for k, v in base.items() if not k.startswith(SCRUBBED)}, **dict((platform or current()).sharing)}


def _kill(pid: int) -> None:
    """Stop a child and everything it started (its session's process group)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
