"""kb.run.preload: preloaded starts, a snippet forked after its own opening imports.

Most of a snippet's start is its imports (``import jax`` 1.0 s here, ``flax.nnx`` 2.0 s, ``torch``
3.7 s), paid again by each of hundreds of processes. This module is where the pool
(``kb.run.runner``) saves them, fenced behind ``PRELOADS``: with it off, every snippet runs cold
(its own interpreter) and nothing else changes.

1. ``prelude(source)`` reads a program's opening statements, up to its last import of a package
   outside the standard library: those imports (``matplotlib`` excepted: the child script,
   ``kb/run/child.py``, sets its backend first) and the ``os.environ`` settings with constant
   values before them (``os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")``).
2. A **server** (``child.py --serve``, in the reader's environment, ``kb.run.process``) runs a
   prelude once and forks a child per snippet; the child runs the whole program from its first
   line, so it is the process ``python snippet.py`` is once its opening imports are done: the
   same modules, imported in the same order under the same settings, before any other line ran.
3. ``shared_preludes`` gives each snippet the longest start of its prelude that another snippet
   shares, and ``Servers`` spawns each server from the one of the longest shared prelude it
   extends (``import jax`` is done once, then ``import optax`` once below it), so each import is
   done once in all.
4. A snippet runs cold where no other snippet shares a start of its prelude, where its folder
   holds a module that a prelude's import would find instead of the package (``shadowed``: a
   server imports from an empty folder), where a server cannot run the prelude or the prelude
   writes anything (a warning at import, which the snippet's record must show), and everywhere
   but Linux (``PRELOADS``). The record lists the prelude it was forked after (``preloaded``); its
   seconds are the child's, from the request to its end. ``tests/test_kb_runner.py`` runs the same
   programs forked and cold and compares what they saw.

Why our own code: the standard library's own fork server (``multiprocessing``'s ``forkserver``,
with ``set_forkserver_preload``) preloads one module list per interpreter and runs its children as
``multiprocessing`` processes (the parent's ``__main__`` imported again, ``parent_process()`` set),
not as scripts; hence the small server in ``child.py``.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any, Hashable, Iterable

from .process import _kill, child_command, reader_environment

# Forked starts (2 above) where fork is safe after the preludes' imports.
PRELOADS = sys.platform == "linux"


def _is_environ(node: ast.AST) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "environ"
            and isinstance(node.value, ast.Name) and node.value.id == "os")


def _sets_environ(node: ast.stmt) -> bool:
    """``os.environ["K"] = "V"`` or ``os.environ.setdefault("K", "V")``, constants only."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
        return (isinstance(target, ast.Subscript) and _is_environ(target.value)
                and isinstance(target.slice, ast.Constant) and isinstance(node.value, ast.Constant))
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        call = node.value
        return (isinstance(call.func, ast.Attribute) and call.func.attr == "setdefault"
                and _is_environ(call.func.value) and not call.keywords and len(call.args) == 2
                and all(isinstance(a, ast.Constant) for a in call.args))
    return False


@lru_cache(maxsize=None)
def _is_submodule(module: str, name: str) -> bool:
    """Whether ``module.name`` is a module on disk (found without importing anything).

    >>> _is_submodule("jax", "numpy"), _is_submodule("jax", "jit")
    (True, False)
    """
    spec = importlib.util.find_spec(module.split(".")[0])  # a top-level package is found, not run
    for location in (spec.submodule_search_locations or []) if spec else []:
        base = Path(location).joinpath(*module.split(".")[1:], name)
        if base.is_dir() or base.with_suffix(".py").exists() or any(base.parent.glob(f"{name}.*.so")):
            return True
    return False


def prelude(source: str) -> tuple[str, ...]:
    """The statements a preloaded server may run before forking this program (1 above).

    The opening imports and constant ``os.environ`` settings, up to the last import of a package
    outside the standard library; standard-library imports are left to the program (the
    interpreter or the packages have them anyway), aliases are dropped (they bind names only in
    the program). Empty when nothing outside the standard library is imported first.

    >>> prelude("'''Doc.'''\\nimport os\\n" 'os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")\\n'
    ...         'import jax\\nimport jax.numpy as jnp\\nfrom functools import partial\\nprint(1)\\nimport optax\\n')
    ('import os', "os.environ.setdefault('JAX_NUM_CPU_DEVICES', '8')", 'import jax', 'import jax.numpy')
    >>> prelude("import time\\nt = time.perf_counter()\\nimport jax\\n"), prelude("import matplotlib.pyplot as plt\\nimport jax\\n")
    ((), ())
    >>> prelude("from flax import nnx, linen as nn\\nfrom jax import P, numpy as jnp\\nimport jax\\n")
    ('import flax', 'import flax.nnx', 'import flax.linen', 'import jax', 'import jax.numpy')
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return ()
    body = list(tree.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    kept: list[str] = []
    last = 0  # how many of ``kept`` the last outside-the-standard-library import ends
    os_imported = False
    for node in body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            continue
        if isinstance(node, ast.Import):
            tops = [a.name.split(".")[0] for a in node.names]
            if "matplotlib" in tops:
                break
            os_imported |= any(a.name == "os" and a.asname is None for a in node.names)
            outside = [a.name for a in node.names if a.name.split(".")[0] not in sys.stdlib_module_names]
            if outside:
                kept += [f"import {name}" for name in outside]
                last = len(kept)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            top = node.module.split(".")[0]
            if top == "matplotlib":
                break
            if top not in sys.stdlib_module_names:
                # ``from m import a, b`` imports m, and a and b where they are modules; the names
                # themselves are looked up when the program runs the statement.
                kept += [f"import {node.module}"] + [f"import {node.module}.{a.name}" for a in node.names
                                                    if _is_submodule(node.module, a.name)]
                last = len(kept)
        elif os_imported and _sets_environ(node):
            kept.append(ast.unparse(node))
        else:
            break
    kept = list(dict.fromkeys(kept[:last]))
    if any(line.startswith("os.environ") for line in kept):
        kept.insert(0, "import os")
    return tuple(kept)


def shadowed(path: Path, statements: Iterable[str]) -> bool:
    """Whether the snippet's folder holds a module a prelude statement would import instead of the package."""
    for statement in statements:
        words = statement.split()
        if words[0] in ("import", "from") and words[1] != "os":
            top = words[1].split(".")[0]
            if (path.parent / f"{top}.py").exists() or (path.parent / top).is_dir():
                return True
    return False


def shared_preludes(preludes: dict[Any, tuple[str, ...]]) -> dict[Any, tuple[str, ...]]:
    """Each job's server prelude: the longest start of its own prelude that another job's prelude
    also starts with (a server for one job would save nothing), ``()`` where none imports a package.

    A child forked after part of its prelude runs the rest itself, as the program does anyway.

    >>> shared_preludes({"a": ("import jax", "import optax"), "b": ("import jax", "import flax"),
    ...                  "c": ("import jax", "import flax"), "d": ("import torch",)})
    {'a': ('import jax',), 'b': ('import jax', 'import flax'), 'c': ('import jax', 'import flax'), 'd': ()}
    """
    starts = Counter(p[:n] for p in preludes.values() for n in range(1, len(p) + 1))
    shared = {}
    for job, statements in preludes.items():
        n = max((n for n in range(1, len(statements) + 1) if starts[statements[:n]] > 1), default=0)
        while n and not statements[n - 1].startswith("import ") or statements[n - 1:n] == ("import os",):
            n -= 1  # end on an import of a package, not on a setting that only a later import reads
        shared[job] = statements[:n]
    return shared


class Servers:
    """The preloaded servers of one ``run_all`` (2 and 3 above): a root process (``child.py
    --serve`` with nothing to preload) and, spawned below it, one server per shared prelude, each
    forked from the server of the longest shared prelude it extends, so that each import is done
    once in all. A server is spawned when its first snippet asks for it and closed when its
    snippets and the servers below it are done. Whatever fails here (a prelude that errs or
    writes, a server that dies) makes the snippets concerned run cold; it never fails a build.
    """

    def __init__(self, preludes: dict[Hashable, tuple[str, ...]], timeout: float):
        self._timeout = timeout
        self.preludes = shared_preludes(preludes) if PRELOADS else {job: () for job in preludes}
        used = set(self.preludes.values()) - {()}
        self.parent = {p: max((q for q in used if len(q) < len(p) and p[:len(q)] == q), key=len, default=())
                       for p in used}
        self._left = Counter(self.preludes.values())  # snippets still to run per prelude ...
        self._left.update(self.parent.values())  # ... and servers still open below it
        self._way: dict[tuple[str, ...], list[str] | None] = {}  # server ids from the root, None: failed
        self._locks = {p: threading.Lock() for p in used | {()}}
        self._lock = threading.Lock()
        self._replies: dict[str, queue.Queue] = {}
        self._count = 0
        self._root: subprocess.Popen | None = None
        self._alive = False
        self._work = tempfile.TemporaryDirectory(prefix="kb-serve-")

    def _start(self) -> None:
        import select

        folder = Path(self._work.name)
        (folder / "cwd").mkdir()
        with open(folder / "root.log", "wb") as log:
            self._root = subprocess.Popen(
                child_command("--serve", "[]"), cwd=folder / "cwd",
                env=reader_environment(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                start_new_session=True)
        answered = select.select([self._root.stdout], [], [], self._timeout)[0]
        self._alive = bool(answered) and self._root.stdout.readline() == b"ready 0 0\n"
        if not answered:  # a root that does not answer is stopped, so that close() does not wait on it
            _kill(self._root.pid)
        if self._alive:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self._root.stdout:
            word, ident, value = line.decode().split()
            self._replies[ident].put((word, int(value)))
        with self._lock:  # the root is gone: whoever waits, and whoever asks later, runs cold
            self._alive = False
            waiting = list(self._replies.values())
        for replies in waiting:
            replies.put(("gone", 0))

    def _send(self, request: dict[str, Any]) -> tuple[str, queue.Queue] | None:
        with self._lock:
            if not self._alive:
                return None
            self._count += 1
            ident = str(self._count)
            replies = self._replies[ident] = queue.Queue()
            try:
                self._root.stdin.write((json.dumps({"id": ident, **request}) + "\n").encode())
                self._root.stdin.flush()
            except OSError:
                return None
            return ident, replies

    def _server(self, statements: tuple[str, ...]) -> list[str] | None:
        """The ids on the way from the root to the server of ``statements`` (spawned if need be)."""
        with self._locks[statements]:
            if statements in self._way:
                return self._way[statements]
            way = None
            if not statements:
                self._start()
                way = [] if self._alive else None
            elif (above := self._server(self.parent[statements])) is not None:
                parent = self.parent[statements]
                handle, log = tempfile.mkstemp(suffix=".log", dir=self._work.name)  # one log per server
                os.close(handle)
                sent = self._send({"spawn": list(statements[len(parent):]), "log": log, "via": above})
                if sent is not None:
                    ident, replies = sent
                    word, pid = replies.get()
                    if word == "started":
                        try:
                            word, _ = replies.get(timeout=self._timeout)  # a prelude that hangs is given up
                        except queue.Empty:
                            _kill(pid)
                        way = above + [ident] if word == "ready" else None
            self._way[statements] = way
            return way

    def prepare(self, item: Hashable) -> None:
        """Spawn the server ``item`` will be forked from, if it is not open yet."""
        if self.preludes[item]:
            self._server(self.preludes[item])

    def run(self, item: Hashable, request: dict[str, str], timeout: float) -> tuple[int, bool] | None:
        """Fork ``item`` from its server: its exit code and whether it was stopped; None: run it cold."""
        statements = self.preludes[item]
        way = self._server(statements) if statements else None
        sent = self._send({**request, "via": way}) if way is not None else None
        if sent is None:
            return None
        deadline = time.monotonic() + timeout
        word, pid = sent[1].get()
        if word != "started":
            return None
        try:
            word, code = sent[1].get(timeout=max(0.0, deadline - time.monotonic()))
            timed_out = False
        except queue.Empty:
            _kill(pid)
            word, code = sent[1].get()
            timed_out = True
        if word == "gone":  # its server died while it ran
            _kill(pid)
            return None
        return code, timed_out

    def done(self, statements: tuple[str, ...]) -> None:
        """One snippet (or server) below ``statements`` is done; close its server after the last."""
        if not statements:
            return
        with self._lock:
            self._left[statements] -= 1
            last = self._left[statements] == 0
        if last:
            way = self._way.get(statements)
            if way:
                self._send({"close": True, "via": way})
            self.done(self.parent[statements])

    def close(self) -> None:
        if self._root is not None:
            try:
                self._root.stdin.close()
            except OSError:
                pass
            self._root.wait()
        self._work.cleanup()
