"""kb.run.runner: one program in a fresh process, as a reader runs it.

1. ``job(path, root)`` names a snippet from the repository root and keys its record
   (``kb.run.store.record_key``: its bytes and what it runs with; ``precision``, the emulated
   matmul precision of ``nox -s precision``, is part of the key).
2. ``run_one(job, ...)`` runs it the way a reader does (``python snippets/x/y.py``): a fresh
   process under a reader's conditions (``kb.run.process``: the build's interpreter, the build's
   environment without its own settings, deprecations as errors; the child script is
   ``kb/run/child.py``), an empty temporary working directory, no standard input. A program still
   running after the timeout is stopped with its whole process group. The result is a record
   (``kb.run.store.record``).
3. ``earlier_seconds`` reads how long a snippet took in an earlier record (the scheduler runs the
   longest first); ``shard(jobs, k, n, seconds)`` gives shard ``k`` of ``n`` its part of the work,
   balanced by those seconds (longest first, each to the least loaded shard; a job without an
   earlier record counts 1 s; ties by name), so the same inputs always give the same split.

Which programs run, and how many at once, is the scheduler's (``kb.run.schedule``): most programs
of a build share processes (``kb.run.batch``); a program that needs a process of its own, or that
failed in a shared one, runs here.

Why our own code: a snippet is a script, and a reader runs it with ``python``; a Jupyter kernel
per snippet (nbclient, jupyter-cache's executors) would add a kernel start to each of hundreds of
programs and run them under ipykernel's ``__main__``, display hook and output capture, which are
not a reader's conditions. ``subprocess`` is that process.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Callable, NamedTuple

from .process import RUNNER, _kill, child_command, reader_environment
from .store import Record, environment, read_record, record, record_key, record_path


class Job(NamedTuple):
    """One snippet to run: its file, its name from the repository root, its record's key, and the
    matmul precision emulated while it runs (``kb.run.precision``; None: none)."""

    path: Path
    name: str
    key: str
    precision: str | None = None


def job(path: Path, root: Path, precision: str | None = None) -> Job:
    """The job that runs ``path`` (a snippet under ``root``) in this environment."""
    name = Path(os.path.relpath(path, root)).as_posix()
    runner = RUNNER + (f"+{precision}" if precision else "")
    return Job(path, name, record_key(path.read_bytes(), environment(), runner), precision)


def run_one(item: Job, timeout: float, alone: bool = False, first_try: str | None = None) -> Record:
    """Run one snippet in a fresh process and return its record (not yet written)."""
    with tempfile.TemporaryDirectory(prefix="kb-run-") as work:
        cwd = Path(work) / "cwd"
        cwd.mkdir()
        notes_file = Path(work) / "notes.json"
        out_path, err_path = Path(work) / "stdout", Path(work) / "stderr"
        start = time.perf_counter()
        command = child_command(str(item.path), item.name, str(notes_file), precision=item.precision)
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
        result = {"returncode": returncode, "timed_out": timed_out, "seconds": round(timeout if timed_out else seconds, 3),
                  "stdout": out_path.read_bytes().decode("utf-8", "replace"),
                  "stderr": err_path.read_bytes().decode("utf-8", "replace"), "figures": notes.get("figures", []),
                  "error_line": notes.get("error_line"), "ran_with": notes.get("ran_with", {})}
    return record(item, result, how="process", alone=alone, first_try=first_try)


def earlier_seconds(folder: Path, name: str) -> float | None:
    """The seconds of the newest record of this snippet in ``folder``, whatever its key."""
    pattern = record_path(folder, name, "*")
    found = sorted(pattern.parent.glob(pattern.name), key=lambda p: p.stat().st_mtime)
    for path in reversed(found):
        earlier = read_record(path)
        if earlier is not None:
            return float(earlier["seconds"])
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
