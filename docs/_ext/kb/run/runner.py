"""kb.run.runner: every snippet runs once per content, alone in a fresh process, as a reader runs it.

1. ``run_one(job, ...)`` runs one program the way a reader does (``python snippets/x/y.py``):
   a fresh process under a reader's conditions (``kb.run.process``: the build's interpreter, the
   build's environment without its own settings, deprecations as errors; the child script is
   ``kb/run/child.py``), an empty temporary working directory, no standard input. A program still
   running after the timeout is stopped with its whole process group. The result is a record
   (``kb.run.store``). ``job(path, root)`` names a snippet from the repository root and keys its
   record.
2. ``run_all(jobs, folder)`` runs many: one pool of worker threads over the machine's cores, each
   waiting on its child process, longest first (by the seconds of an earlier record of the same
   snippet, ``earlier_seconds``), so the site's programs share the cores as one queue rather than
   page by page. Then the **timing snippets** (those with the ``TIMINGS`` comment line,
   ``kb.run.snippet``, whose output is a measurement) run one at a time with nothing else
   running, so that the numbers on the performance pages are not taken while another program
   competes for the same cores; their records say ``alone``. Every record is written as soon as
   its run ends, so an interrupted build keeps every run that finished. A failing snippet never
   stops the others.
3. **Preloaded starts** (``kb.run.preload``): where snippets share their opening imports, a child
   is forked from a server that already ran them, and it is then the process ``python snippet.py``
   is once those imports are done; everywhere else (and wherever a server fails) it runs cold.
   The jobs go in the order of the servers' family tree, so that a server is open only while its
   branch runs.
4. ``shard(jobs, k, n, seconds)`` gives shard ``k`` of ``n`` its part of the work, balanced by the
   seconds of earlier records (longest first, each to the least loaded shard; a job without an
   earlier record counts 1 s; ties by name), so the same inputs always give the same split.

Which snippets run is the caller's: the build (``kb.execution.site_jobs``, from the pages Sphinx
found), the shards (``tools/shards.py``) and a machine's pass (``tools/machine_report.py``).

Why our own code: a snippet is a script, and a reader runs it with ``python``; a Jupyter kernel
per snippet (nbclient, jupyter-cache's executors) would add a kernel start to each of hundreds of
programs and run them under ipykernel's ``__main__``, display hook and output capture, which are
not a reader's conditions. What is left is a process pool, and the standard library's
``concurrent.futures`` with ``subprocess`` is that pool (a thread only waits on its child).
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Callable, Iterable, NamedTuple

from .preload import Servers, prelude, shadowed
from .process import RUNNER, _kill, child_command, reader_environment
from .snippet import is_timing
from .store import FORMAT, Record, environment, read_record, record_key, record_path, write_record


class Job(NamedTuple):
    """One snippet to run: its file, its name from the repository root, its record's key."""

    path: Path
    name: str
    key: str


def job(path: Path, root: Path) -> Job:
    """The job that runs ``path`` (a snippet under ``root``) in this environment."""
    name = Path(os.path.relpath(path, root)).as_posix()
    return Job(path, name, record_key(path.read_bytes(), environment(), RUNNER))


def run_one(item: Job, timeout: float, alone: bool = False, servers: Servers | None = None) -> Record:
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
            command = child_command(str(item.path), item.name, str(notes_file))
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
    return Record(
        format=FORMAT, key=item.key, snippet=item.name, lock=env["lock"], runner=RUNNER,
        backend=env["backend"], python=env["python"], returncode=returncode, timed_out=timed_out,
        seconds=round(timeout if timed_out else seconds, 3), stdout=stdout, stderr=stderr,
        figures=notes.get("figures", []), error_line=notes.get("error_line"),
        ran_with=notes.get("ran_with", {}), alone=alone,
        preloaded=list(servers.preludes[item]) if forked is not None else [],
    )


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


def run_all(items: Iterable[Job], folder: Path, *, timeout: float, workers: int | None = None,
            done: Callable[[Record], None] | None = None) -> list[Record]:
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

    def finish(record: Record) -> None:
        write_record(folder, record)
        with lock:
            records.append(record)
        if done is not None:
            done(record)

    def one(item: Job, alone: bool = False) -> Record:
        try:
            return run_one(item, timeout, alone=alone, servers=servers)
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
