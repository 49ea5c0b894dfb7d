"""kb.run.process: the process a snippet runs in, as a reader runs it, and the runner's version.

1. A snippet's process is a fresh interpreter (the build's own) running the child script
   ``CHILD`` (``kb/run/child.py``, whose docstring says the little it adds: the snippet's own file
   name in tracebacks, figures as SVG, a note of what it ran with), with deprecation,
   pending-deprecation and future warnings as errors (``WARNINGS_AS_ERRORS``). The pool
   (``kb.run.runner``) and the preloaded servers (``kb.run.preload``) both start it with
   ``child_command``, which reads ``CHILD`` at each start (``tools/precision_check.py`` stands a
   wrapper in for it).
2. ``reader_environment()``: the build's environment without any ``JAX_*``, ``XLA_*``, ``KB_*`` or
   ``TQDM_*`` variable (``SCRUBBED``) but with ``XLA_PYTHON_CLIENT_PREALLOCATE=false``
   (``SHARING``: programs share one accelerator here, a reader's does not).
3. ``_kill(pid)`` stops a child and everything it started (its session's process group): a
   program still running after its timeout, a server that does not answer.
4. ``RUNNER`` is the runner's version, part of every record's key (``kb.run.store.record_key``):
   it changes when these settings or the child script change, and then every snippet runs again.

These constants are a module of their own, below both the record store (``kb.run.store``, which
names a record by ``RUNNER``) and the pool (``kb.run.runner``, which writes records), so that
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

CHILD = Path(__file__).with_name("child.py")
WARNINGS_AS_ERRORS = ("-W", "error::DeprecationWarning", "-W", "error::FutureWarning",
                      "-W", "error::PendingDeprecationWarning")
SCRUBBED = ("JAX_", "XLA_", "KB_", "TQDM_")
# The one setting a reader does not have: several programs (and their children) share one GPU at
# a time here, and each JAX process would otherwise take 75 % of its memory when it starts, so
# the next one could not start its GPU backend. On a CPU it changes nothing.
SHARING = {"XLA_PYTHON_CLIENT_PREALLOCATE": "false"}
RUNNER = "4-" + hashlib.sha256(CHILD.read_bytes() + repr((WARNINGS_AS_ERRORS, SCRUBBED, SHARING)).encode()).hexdigest()[:12]


def child_command(*arguments: str) -> list[str]:
    """The command line that starts the child script with ``arguments``.

    >>> child_command("--serve", "[]")[-3:] == [str(CHILD), "--serve", "[]"]
    True
    """
    return [sys.executable, *WARNINGS_AS_ERRORS, str(CHILD), *arguments]


def reader_environment(base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment a snippet runs in: the build's, without the build's own settings.

    >>> sorted(reader_environment({"PATH": "/bin", "JAX_PLATFORMS": "cpu", "KB_X": "1", "XLA_FLAGS": "-x"}))
    ['PATH', 'XLA_PYTHON_CLIENT_PREALLOCATE']
    """
    base = os.environ if base is None else base
    return {**{k: v for k, v in base.items() if not k.startswith(SCRUBBED)}, **SHARING}


def _kill(pid: int) -> None:
    """Stop a child and everything it started (its session's process group)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
