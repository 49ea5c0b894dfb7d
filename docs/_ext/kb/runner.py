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
3. ``shard(jobs, k, n, seconds)`` gives shard ``k`` of ``n`` its part of the work, balanced by the
   seconds of earlier records (longest first, each to the least loaded shard; a job without an
   earlier record counts 1 s; ties by name), so the same inputs always give the same split.

``RUNNER`` is this runner's version, part of every record's key: it changes when this module's
settings or the child script change, and then every snippet runs again.

Why our own code: a snippet is a script, and a reader runs it with ``python``; a Jupyter kernel
per snippet (nbclient, jupyter-cache's executors) would add a kernel start to each of hundreds of
programs and run them under ipykernel's ``__main__``, display hook and output capture, which are
not a reader's conditions. What is left is a process pool, and the standard library's
``concurrent.futures`` with ``subprocess`` is that pool (a thread only waits on its child).
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any, Callable, Iterable, NamedTuple

from .records import FORMAT, environment, record_key, record_path, read_record, write_record

CHILD = Path(__file__).with_name("run_snippet.py")
WARNINGS_AS_ERRORS = ("-W", "error::DeprecationWarning", "-W", "error::FutureWarning",
                      "-W", "error::PendingDeprecationWarning")
SCRUBBED = ("JAX_", "XLA_", "KB_", "TQDM_")
TIMINGS = "# The timings this program prints differ from run to run and from machine to machine."
# The one setting a reader does not have: several programs (and their children) share one GPU at
# a time here, and each JAX process would otherwise take 75 % of its memory when it starts, so
# the next one could not start its GPU backend. On a CPU it changes nothing.
SHARING = {"XLA_PYTHON_CLIENT_PREALLOCATE": "false"}
RUNNER = "3-" + hashlib.sha256(CHILD.read_bytes() + repr((WARNINGS_AS_ERRORS, SCRUBBED, SHARING)).encode()).hexdigest()[:12]


class Job(NamedTuple):
    """One snippet to run: its file, its name from the repository root, its record's key."""

    path: Path
    name: str
    key: str


def is_timing(text: str) -> bool:
    """Whether a snippet declares that it prints timings.

    >>> is_timing(f'\"\"\"x\"\"\"\\n{TIMINGS}\\nprint(1)\\n'), is_timing('print(1)')
    (True, False)
    """
    return any(line.strip() == TIMINGS for line in text.splitlines())


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


def run_snippet(item: Job, timeout: float, alone: bool = False) -> dict[str, Any]:
    """Run one snippet in a fresh process and return its record (not yet written)."""
    env = environment()
    with tempfile.TemporaryDirectory(prefix="kb-run-") as work:
        cwd = Path(work) / "cwd"
        cwd.mkdir()
        notes_file = Path(work) / "notes.json"
        out_path, err_path = Path(work) / "stdout", Path(work) / "stderr"
        command = [sys.executable, *WARNINGS_AS_ERRORS, str(CHILD), str(item.path), item.name, str(notes_file)]
        start = time.perf_counter()
        timed_out = False
        with open(out_path, "ab") as out, open(err_path, "ab") as err:
            process = subprocess.Popen(command, cwd=cwd, env=reader_environment(), stdin=subprocess.DEVNULL,
                                       stdout=out, stderr=err, start_new_session=True)
            try:
                returncode = process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
                os.killpg(process.pid, signal.SIGKILL)
                returncode = process.wait()
        seconds = time.perf_counter() - start
        try:
            notes = json.loads(notes_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            notes = {}
        stdout = out_path.read_bytes().decode("utf-8", "replace")
        stderr = err_path.read_bytes().decode("utf-8", "replace")
    return {
        "format": FORMAT, "key": item.key, "snippet": item.name, "lock": env["lock"], "runner": RUNNER,
        "backend": env["backend"], "python": env["python"], "returncode": returncode, "timed_out": timed_out,
        "seconds": round(timeout if timed_out else seconds, 3), "stdout": stdout, "stderr": stderr,
        "figures": notes.get("figures", []), "error_line": notes.get("error_line"),
        "ran_with": notes.get("ran_with", {}), "alone": alone,
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


def run_all(items: Iterable[Job], folder: Path, *, timeout: float, workers: int | None = None,
            done: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """Run every job (parallel ones in a pool, then timing ones alone); write each record at once."""
    items = list(dict.fromkeys(items))
    timing = [i for i in items if is_timing(i.path.read_text(encoding="utf-8"))]
    parallel = [i for i in items if i not in timing]
    parallel.sort(key=lambda i: -(earlier_seconds(folder, i.name) or 0.0))
    records = []

    def finish(record: dict[str, Any]) -> None:
        write_record(folder, record)
        records.append(record)
        if done is not None:
            done(record)

    with ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 1) as pool:
        futures = [pool.submit(run_snippet, item, timeout) for item in parallel]
        for future in as_completed(futures):
            finish(future.result())
    for item in timing:
        finish(run_snippet(item, timeout, alone=True))
    return records
