"""kb.runner: every snippet runs once per content, alone in a fresh process, as a reader runs it.

1. ``run_snippet(path, ...)`` runs one program the way a reader does (``python snippets/x/y.py``):
   a fresh interpreter (the build's own), an empty temporary working directory, no standard
   input, the build's environment without any ``JAX_*``, ``XLA_*``, ``KB_*`` or ``TQDM_*``
   variable but with ``XLA_PYTHON_CLIENT_PREALLOCATE=false`` (``SHARING``: programs share one
   accelerator here, a reader's does not), and deprecation, pending-deprecation and future warnings as errors. The child is
   ``run_snippet.py`` (its docstring says the little it adds: the snippet's own file name in
   tracebacks, figures as SVG, a note of what it ran with). A program still running after the
   timeout is stopped with its whole process group. The result is a record (``kb.records``).
2. ``run_all(jobs, folder)`` runs many: one pool of worker threads over the machine's cores, each
   waiting on its child process, longest first (by the seconds of an earlier record of the same
   snippet), so the site's programs share the cores as one queue rather than page by page. Then
   the **timing snippets** (those with the ``TIMINGS`` comment line, whose output is a
   measurement) run one at a time with nothing else running, so that the numbers on the
   performance pages are not taken while another program competes for the same cores; their
   records say ``alone``. Every record is written as soon as its run ends, so an interrupted build
   keeps every run that finished. A failing snippet never stops the others.
3. **Preloaded starts.** Most of a snippet's start is its imports (``import jax`` 1.0 s here,
   ``flax.nnx`` 2.0 s, ``torch`` 3.7 s), paid again by each of hundreds of processes. So
   ``prelude(source)`` reads a program's opening statements, up to its last import of a package
   outside the standard library: those imports (``matplotlib`` excepted: ``run_snippet.py`` sets
   its backend first) and the ``os.environ`` settings with constant values before them
   (``os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")``). A **server**
   (``run_snippet.py --serve``, in the reader's environment) runs a prelude once and forks a
   child per snippet; the child runs the whole program from its first line, so it is the process
   ``python snippet.py`` is once its opening imports are done: the same modules, imported in the
   same order under the same settings, before any other line ran. ``shared_preludes`` gives each
   snippet the longest start of its prelude that another snippet shares, and ``Servers`` spawns
   each server from the one of the longest shared prelude it extends (``import jax`` is done once,
   then ``import optax`` once below it), so each import is done once in all. A snippet runs cold
   (its own interpreter, as in 1) where no other snippet shares a start of its prelude, where its
   folder holds a module that a prelude's import would find instead of the package (a server
   imports from an empty folder), where a server cannot run the prelude or the prelude writes
   anything (a warning at import, which the snippet's record must show), and everywhere but Linux
   (``PRELOADS``). The record lists the prelude it was forked after (``preloaded``); its seconds
   are the child's, from the request to its end. ``tests/test_kb_runner.py`` runs the same
   programs forked and cold and compares what they saw.
4. ``shard(jobs, k, n, seconds)`` gives shard ``k`` of ``n`` its part of the work, balanced by the
   seconds of earlier records (longest first, each to the least loaded shard; a job without an
   earlier record counts 1 s; ties by name), so the same inputs always give the same split.

``RUNNER`` is this runner's version, part of every record's key: it changes when this module's
settings or the child script change, and then every snippet runs again.

Why our own code: a snippet is a script, and a reader runs it with ``python``; a Jupyter kernel
per snippet (nbclient, jupyter-cache's executors) would add a kernel start to each of hundreds of
programs and run them under ipykernel's ``__main__``, display hook and output capture, which are
not a reader's conditions. What is left is a process pool, and the standard library's
``concurrent.futures`` with ``subprocess`` is that pool (a thread only waits on its child). The
standard library's own fork server (``multiprocessing``'s ``forkserver``, with
``set_forkserver_preload``) preloads one module list per interpreter and runs its children as
``multiprocessing`` processes (the parent's ``__main__`` imported again, ``parent_process()`` set),
not as scripts; hence the small server in ``run_snippet.py``.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from functools import lru_cache
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any, Callable, Iterable, NamedTuple

from .run.snippet import TIMINGS, is_timing  # noqa: F401 (declared in the run core)
from .records import FORMAT, environment, record_key, record_path, read_record, write_record

CHILD = Path(__file__).with_name("run_snippet.py")
WARNINGS_AS_ERRORS = ("-W", "error::DeprecationWarning", "-W", "error::FutureWarning",
                      "-W", "error::PendingDeprecationWarning")
SCRUBBED = ("JAX_", "XLA_", "KB_", "TQDM_")
# The one setting a reader does not have: several programs (and their children) share one GPU at
# a time here, and each JAX process would otherwise take 75 % of its memory when it starts, so
# the next one could not start its GPU backend. On a CPU it changes nothing.
SHARING = {"XLA_PYTHON_CLIENT_PREALLOCATE": "false"}
# Forked starts (3 above) where fork is safe after the preludes' imports.
PRELOADS = sys.platform == "linux"
RUNNER = "4-" + hashlib.sha256(CHILD.read_bytes() + repr((WARNINGS_AS_ERRORS, SCRUBBED, SHARING)).encode()).hexdigest()[:12]


class Job(NamedTuple):
    """One snippet to run: its file, its name from the repository root, its record's key."""

    path: Path
    name: str
    key: str


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
    """The statements a preloaded server may run before forking this program (3 above).

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


def reader_environment(base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment a snippet runs in: the build's, without the build's own settings.

    >>> sorted(reader_environment({"PATH": "/bin", "JAX_PLATFORMS": "cpu", "KB_X": "1", "XLA_FLAGS": "-x"}))
    ['PATH', 'XLA_PYTHON_CLIENT_PREALLOCATE']
    """
    base = os.environ if base is None else base
    return {**{k: v for k, v in base.items() if not k.startswith(SCRUBBED)}, **SHARING}


def job(path: Path, root: Path) -> Job:
    """The job that runs ``path`` (a snippet under ``root``) in this environment."""
    name = Path(os.path.relpath(path, root)).as_posix()
    return Job(path, name, record_key(path.read_bytes(), environment(), RUNNER))


def site_jobs(srcdir: Path, snippets_dir: Path, exclude_patterns, source_suffix) -> tuple[dict[str, list[str]], dict[str, Job]]:
    """Every page's snippet names (page order), and each snippet's job, once however many pages load it.

    The one answer for the build (``kb.execution``) and for the shards (``tools/run_snippets.py``).
    """
    from .cells import page_snippets  # here, not at the top: the runner itself needs no Sphinx (tools/machine_report.py)

    root = srcdir.parent
    pages: dict[str, list[str]] = {}
    jobs: dict[str, Job] = {}
    for docname, paths in page_snippets(srcdir, snippets_dir.resolve(), exclude_patterns, source_suffix).items():
        pages[docname] = []
        for path in paths:
            name = Path(os.path.relpath(path, root)).as_posix()
            if name not in jobs:
                jobs[name] = job(path, root)
            pages[docname].append(name)
    return pages, jobs


def _kill(pid: int) -> None:
    """Stop a child and everything it started (its session's process group)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def run_snippet(item: Job, timeout: float, alone: bool = False, servers: Servers | None = None) -> dict[str, Any]:
    """Run one snippet in a fresh process (cold, or forked by ``servers``) and return its record (not yet written)."""
    env = environment()
    with tempfile.TemporaryDirectory(prefix="kb-run-") as work:
        cwd = Path(work) / "cwd"
        cwd.mkdir()
        notes_file = Path(work) / "notes.json"
        out_path, err_path = Path(work) / "stdout", Path(work) / "stderr"
        if servers is not None:
            servers.prepare(item)  # a server's start is not the snippet's time
        start = time.perf_counter()
        forked = None
        if servers is not None:
            forked = servers.run(item, {"snippet": str(item.path), "name": item.name, "notes": str(notes_file),
                                 "cwd": str(cwd), "stdout": str(out_path), "stderr": str(err_path)}, timeout)
        if forked is not None:
            returncode, timed_out = forked
        else:
            for leftover in (out_path, err_path, notes_file):  # a lost server's child may have begun
                leftover.unlink(missing_ok=True)
            start = time.perf_counter()
            command = [sys.executable, *WARNINGS_AS_ERRORS, str(CHILD), str(item.path), item.name, str(notes_file)]
            timed_out = False
            with open(out_path, "ab") as out, open(err_path, "ab") as err:
                process = subprocess.Popen(command, cwd=cwd, env=reader_environment(), stdin=subprocess.DEVNULL,
                                           stdout=out, stderr=err, start_new_session=True)
                try:
                    returncode = process.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    timed_out = True
                    _kill(process.pid)
                    returncode = process.wait()
        seconds = time.perf_counter() - start
        try:
            notes = json.loads(notes_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            notes = {}
        stdout = out_path.read_bytes().decode("utf-8", "replace") if out_path.exists() else ""
        stderr = err_path.read_bytes().decode("utf-8", "replace") if err_path.exists() else ""
    return {
        "format": FORMAT, "key": item.key, "snippet": item.name, "lock": env["lock"], "runner": RUNNER,
        "backend": env["backend"], "python": env["python"], "returncode": returncode, "timed_out": timed_out,
        "seconds": round(timeout if timed_out else seconds, 3), "stdout": stdout, "stderr": stderr,
        "figures": notes.get("figures", []), "error_line": notes.get("error_line"),
        "ran_with": notes.get("ran_with", {}), "alone": alone,
        "preloaded": list(servers.preludes[item]) if forked is not None else [],
    }


def earlier_seconds(folder: Path, name: str) -> float | None:
    """The seconds of the newest record of this snippet in ``folder``, whatever its key."""
    pattern = record_path(folder, name, "*")
    found = sorted(pattern.parent.glob(pattern.name), key=lambda p: p.stat().st_mtime)
    for path in reversed(found):
        record = read_record(path)
        if record is not None:
            return float(record["seconds"])
    return None


def shard(items: list[Job], k: int, n: int, seconds: Callable[[Job], float | None]) -> list[Job]:
    """Shard ``k`` (1-based) of ``n``: greedy by earlier seconds, stable by name.

    >>> jobs = [Job(Path(x), x, x) for x in "abcde"]
    >>> times = {"a": 5.0, "b": 4.0, "c": 3.0, "d": 2.0}
    >>> [[j.name for j in shard(jobs, k, 2, lambda j: times.get(j.name))] for k in (1, 2)]
    [['a', 'd', 'e'], ['b', 'c']]
    """
    if not 1 <= k <= n:
        raise ValueError(f"shard {k}/{n}: K must be between 1 and N")
    known = {item.name: seconds(item) for item in items}
    cost = {name: 1.0 if value is None else value for name, value in known.items()}  # unknown: 1 s
    order = sorted(items, key=lambda item: (-cost[item.name], item.name))
    loads = [0.0] * n
    mine = []
    for item in order:
        target = min(range(n), key=lambda s: (loads[s], s))
        loads[target] += cost[item.name]
        if target == k - 1:
            mine.append(item)
    return sorted(mine, key=lambda item: item.name)


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
    """The preloaded servers of one ``run_all`` (3 above): a root process (``run_snippet.py
    --serve`` with nothing to preload) and, spawned below it, one server per shared prelude, each
    forked from the server of the longest shared prelude it extends, so that each import is done
    once in all. A server is spawned when its first snippet asks for it and closed when its
    snippets and the servers below it are done. Whatever fails here (a prelude that errs or
    writes, a server that dies) makes the snippets concerned run cold; it never fails a build.
    """

    def __init__(self, preludes: dict[Job, tuple[str, ...]], timeout: float):
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
                [sys.executable, *WARNINGS_AS_ERRORS, str(CHILD), "--serve", "[]"], cwd=folder / "cwd",
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

    def prepare(self, item: Job) -> None:
        """Spawn the server ``item`` will be forked from, if it is not open yet."""
        if self.preludes[item]:
            self._server(self.preludes[item])

    def run(self, item: Job, request: dict[str, str], timeout: float) -> tuple[int, bool] | None:
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


def run_all(items: Iterable[Job], folder: Path, *, timeout: float, workers: int | None = None,
            done: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """Run every job (parallel ones in a pool, then timing ones alone); write each record at once.

    The jobs go in the order of the servers' family tree (depth first, the branch with the longest
    job first; within a server, longest first), so that a server is open only while its branch
    runs; an earlier record's seconds are a job's cost (none: 0).
    """
    items = list(dict.fromkeys(items))
    texts = {i: i.path.read_text(encoding="utf-8") for i in items}
    preludes = {}
    for i in items:
        statements = prelude(texts[i])
        preludes[i] = () if shadowed(i.path, statements) else statements
    timing = [i for i in items if is_timing(texts[i])]
    parallel = [i for i in items if i not in timing]
    cost = {i: earlier_seconds(folder, i.name) or 0.0 for i in parallel}
    servers = Servers(preludes, timeout)

    def in_tree_order(jobs: list[Job]) -> list[Job]:
        groups: dict[tuple[str, ...], list[Job]] = {}
        for i in jobs:
            groups.setdefault(servers.preludes[i], []).append(i)
        below: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
        for p in groups:
            if p:
                q = servers.parent[p]
                while q and q not in groups:  # the nearest server above with jobs here
                    q = servers.parent[q]
                below.setdefault(q, []).append(p)
        weight: dict[tuple[str, ...], float] = {}

        def heaviest(p: tuple[str, ...]) -> float:
            if p not in weight:
                weight[p] = max([cost.get(i, 0.0) for i in groups.get(p, []) if p]
                                + [heaviest(q) for q in below.get(p, [])], default=0.0)
            return weight[p]

        def walk(p: tuple[str, ...]) -> list[Job]:
            # At the top, cold jobs are branches of their own.
            own = [] if not p else sorted(groups[p], key=lambda i: (-cost.get(i, 0.0), i.name))
            branches = [(heaviest(q), q[0] if q else "", "server", q) for q in below.get(p, [])]
            if not p:
                branches += [(cost.get(i, 0.0), i.name, "cold", i) for i in groups.get((), [])]
            out = list(own)
            for _, _, kind, what in sorted(branches, key=lambda b: (-b[0], b[1])):
                out += walk(what) if kind == "server" else [what]
            return out

        return walk(())

    records = []
    lock = threading.Lock()

    def finish(record: dict[str, Any]) -> None:
        write_record(folder, record)
        with lock:
            records.append(record)
        if done is not None:
            done(record)

    def one(item: Job, alone: bool = False) -> dict[str, Any]:
        try:
            return run_snippet(item, timeout, alone=alone, servers=servers)
        finally:
            servers.done(servers.preludes[item])

    try:
        with ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 1) as pool:
            futures = [pool.submit(one, item) for item in in_tree_order(parallel)]
            for future in as_completed(futures):
                finish(future.result())
        for item in in_tree_order(timing):
            finish(one(item, alone=True))
    finally:
        servers.close()
    return records
