"""kb.run.store: what one run of a snippet produced, kept as a plain file.

1. A **record** (``Record``, built by ``record``) is one JSON file per run of one snippet: exit
   status, stdout, stderr, the figures (SVG with their place in stdout), the snippet line where an
   exception escaped, seconds, whether it ran alone (timing snippets), how it ran (``how``: a
   fresh process, or one shared with other programs, ``kb.run.schedule``), and what it ran with
   (versions, devices, machine). It is named ``<section>/<name>-<key>.json`` in a records folder
   (``kb_records`` in ``conf.py``, ``_build/records/``).
2. The **key** is a hash of everything that decides the result: the snippet's bytes, the
   environment's lock (the hash of the requirements files the environment was installed from,
   which nox stamps into it, or else of every installed distribution), the JAX plugins installed
   (the backend), the Python version and the runner's version (``kb.run.process.RUNNER``). An
   unchanged snippet in an unchanged environment is never run again; an edited one re-runs alone.
   ``pinned_versions`` reads the pins of a requirements file, beside ``environment()``, for
   whoever compares a machine with them (``tools/machine/report.py``, ``kb.floors``).
3. A record is written atomically (a temporary file, then a rename), so an interrupted build leaves
   whole records or none. A record that does not parse, lacks a field or whose key is not its
   file's is treated as absent (the snippet runs again). Only a good record is reused: a snippet
   that failed runs again in the next build. ``problem(record)`` says why a run does not count
   (the platform noise of ``kb.run.noise`` aside), and ``failure_message`` how a build names it.
4. ``import_records(folders, into)`` gathers records made elsewhere (the shards of a CI build):
   one made with another lock, runner or Python is refused with a message naming what differs.

The pages are read from the records by ``kb.reader`` (MyST-NB's page reader), on the Sphinx side.

Why our own code: MyST-NB and jupyter-cache cache whole notebooks run in one kernel, so a page is
the unit of execution there; sphinx-gallery executes per file but renders its own gallery pages,
not MyST notebooks. A record per program is what lets a program, not a page, be the unit.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import platform
import re
import shutil
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, TypedDict

from .noise import split
from .platforms import PLUGINS, canonical
from .process import RUNNER

FORMAT = 1


class RunResult(TypedDict):
    """What one run of a program produced, however it ran (a fresh process, ``kb.run.runner``, or a
    shared one, ``kb.run.batch``): the fields every path fills."""

    returncode: int
    timed_out: bool
    seconds: float  # the timeout, if it timed out
    stdout: str
    stderr: str
    figures: list[dict[str, Any]]  # each {"offset" in stdout, "svg", "text"} (kb/run/child.py)
    error_line: int | None  # the snippet's line where an exception escaped
    ran_with: dict[str, Any]  # versions, devices, machine (kb/run/child.py)


class Record(RunResult):
    """One run of one snippet (1 above): the one place that spells a record's shape (``record``
    builds it, ``FIELDS`` reads it)."""

    format: int  # FORMAT
    key: str  # record_key(): what decides the result
    snippet: str  # from the repository root: snippets/core/jit_x.py
    lock: str  # environment()'s lock (the requirements' hash)
    runner: str  # kb.run.process.RUNNER
    backend: str  # environment()'s backend: the JAX plugins installed, or "cpu"
    python: str
    alone: bool  # a timing snippet, run with nothing else running
    how: str  # HOW: "process" (a fresh one), "batch" (a process shared with other programs, kb.run.batch)
    first_try: str | None  # why its run in a shared process failed, when it then ran again in a fresh one


FIELDS = tuple(Record.__annotations__)  # a record lacking one of these is treated as absent (3 above)
HOW = ("process", "batch", "not run")  # "not run": a machine pass found a package it imports missing
# How a program ran on a machine, as its report says (tools/machine/report.py), in the order a tally names them.
OUTCOMES = ("ok", "emulated", "failed", "timed out", "fell back to the CPU", "versions differ", "not installed here")


def record(item: Any, result: RunResult, *, how: str, alone: bool, first_try: str | None = None) -> Record:
    """The record of ``item`` (a ``kb.run.runner.Job``) from one run's result, in this environment."""
    env = environment()
    return Record(**result, format=FORMAT, key=item.key, snippet=item.name, lock=env["lock"], runner=RUNNER,
                  backend=env["backend"], python=env["python"], alone=alone, how=how, first_try=first_try)


# --------------------------------------------------------------------------------------------
# 2: keys
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=None)
def pinned_versions(requirements: Path) -> dict[str, str]:
    r"""The pinned version of each package in a requirements file (lower-case names, ``-`` for
    ``_``): what ``tools/machine/report.py`` compares a machine against and ``kb.floors`` calls the pin.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "r.txt").write_text("jax==0.12.0.1\nOrbax_Checkpoint[x]==0.11  # c\nnumpy>=2\n")
    ...     pinned_versions(Path(d) / "r.txt")
    {'jax': '0.12.0.1', 'orbax-checkpoint': '0.11'}
    """
    found = {}
    for line in requirements.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?==([^\s;#]+)", line.strip())
        if match:
            found[canonical(match[1])] = match[2]
    return found


@functools.lru_cache(maxsize=None)
def _installed(search_path: tuple[str, ...]) -> tuple[str, ...]:
    """``name==version`` of every distribution on ``search_path`` (``sys.path``), lower-case.

    Read once per process and path: each distribution's metadata is parsed as an e-mail message,
    about 0.1 s for this environment's 300-odd packages, and the build asks for every snippet's
    key (1551 times in one gettext build of the site: 96 % of its time before this cache).
    Nothing installs packages into the running interpreter during a build or a test.
    """
    from importlib.metadata import distributions

    return tuple(sorted({f"{d.metadata['Name']}=={d.version}".lower() for d in distributions(path=list(search_path))}))


def environment(prefix: str = sys.prefix) -> dict[str, str]:
    """What of the environment decides a snippet's result: lock, backend (JAX plugins), Python.

    >>> env = environment()
    >>> sorted(env), len(env["lock"])
    (['backend', 'lock', 'python'], 64)
    """
    installed = _installed(tuple(sys.path))
    stamp = Path(prefix) / ".requirements.sha256"  # nox's stamp of the requirements it installed
    lock = stamp.read_text().strip() if stamp.is_file() else hashlib.sha256("\n".join(installed).encode()).hexdigest()
    plugins = [name for name in installed if canonical(name).startswith(PLUGINS)]
    return {"lock": lock, "backend": ",".join(plugins) or "cpu", "python": platform.python_version()}


def record_key(snippet_bytes: bytes, env: dict[str, str], runner: str) -> str:
    """The record's key: a hash of the snippet and of what it runs with.

    >>> env = {"lock": "a", "backend": "cpu", "python": "3.12.1"}
    >>> k = record_key(b"print(1)", env, "r1")
    >>> len(k), k == record_key(b"print(2)", env, "r1"), k == record_key(b"print(1)", env, "r2")
    (20, False, False)
    """
    digest = hashlib.sha256(snippet_bytes)
    for part in (env["lock"], env["backend"], env["python"], runner):
        digest.update(b"\0" + part.encode())
    return digest.hexdigest()[:20]


def record_path(folder: Path, snippet: str, key: str) -> Path:
    """Where a record lives: ``snippets/core/jit_x.py`` -> ``<folder>/core/jit_x-<key>.json``.

    >>> record_path(Path("r"), "snippets/core/jit_x.py", "abc").as_posix()
    'r/core/jit_x-abc.json'

    A name that leaves the project (a snippets folder reached through another checkout) would put
    its record outside ``folder``; it is refused:

    >>> record_path(Path("r"), "../../other/snippets/core/jit_x.py", "abc")
    Traceback (most recent call last):
    ...
    ValueError: ../../other/snippets/core/jit_x.py: a snippet is named by its path from the project's root (snippets/<section>/<name>.py); this one lies outside the project, so its record would be written outside r
    """
    if Path(snippet).is_absolute() or ".." in Path(snippet).parts:
        raise ValueError(f"{snippet}: a snippet is named by its path from the project's root "
                         f"(snippets/<section>/<name>.py); this one lies outside the project, so its "
                         f"record would be written outside {folder}")
    parts = Path(snippet).with_suffix("").parts[1:]
    return folder.joinpath(*parts[:-1], f"{parts[-1]}-{key}.json")


# --------------------------------------------------------------------------------------------
# 3: reading and writing
# --------------------------------------------------------------------------------------------


def write_record(folder: Path, record: dict[str, Any]) -> Path:
    """Write a record atomically; returns its path."""
    path = record_path(folder, record["snippet"], record["key"])
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f".{path.name}.{os.getpid()}.part")
    part.write_text(json.dumps(record, ensure_ascii=False, indent=0), encoding="utf-8")
    os.replace(part, path)
    return path


def read_record(path: Path) -> Record | None:
    """The record in ``path``, or None if it is missing, corrupt, partial or misnamed.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> good = {f: None for f in FIELDS} | {"format": FORMAT, "key": "k1", "snippet": "snippets/s/a.py"}
    >>> path = write_record(folder, good)
    >>> read_record(path)["key"]
    'k1'
    >>> _ = path.write_text(path.read_text()[:-20]); read_record(path) is None  # cut short
    True
    """
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or any(f not in record for f in FIELDS) or record["format"] != FORMAT:
        return None
    if record_path(Path("."), str(record["snippet"]), str(record["key"])).name != path.name:
        return None
    return record


def problem(record: dict[str, Any]) -> str | None:
    """Why a record's run does not count (None: it is good).

    >>> base = {"returncode": 0, "timed_out": False, "stdout": "1\\n", "stderr": "", "figures": [],
    ...         "error_line": None}
    >>> problem(base) is None, problem(base | {"stdout": ""}), problem(base | {"stderr": "x.py:3: FutureWarning: old"})
    (True, 'printed nothing (a snippet prints what its page discusses)', 'wrote to stderr: x.py:3: FutureWarning: old')
    >>> tpu = "/v/jax/_src/cloud_tpu_init.py:90: UserWarning: Transparent hugepages are not enabled. TPU ...\\n"
    >>> problem(base | {"stderr": tpu}) is None, problem(base | {"stderr": tpu + "x.py:3: UserWarning: mine\\n"})
    (True, 'wrote to stderr: x.py:3: UserWarning: mine')
    """
    if record["timed_out"]:
        return f"still running after the {record['seconds']:.0f} s timeout; the process was stopped"
    if record["returncode"] != 0:
        lines = [line.strip() for line in record["stderr"].splitlines() if line.strip()]
        return (lines[-1] if lines else "no message") + f" (exit status {record['returncode']})"
    stderr, _ = split(record["stderr"])  # a platform's own start-up message is not the program's (kb.run.noise)
    if stderr.strip():
        lines = [line.strip() for line in stderr.splitlines() if line.strip()]
        return "wrote to stderr: " + " | ".join(lines[:3])
    if not record["stdout"].strip() and not record["figures"]:
        return "printed nothing (a snippet prints what its page discusses)"
    return None


def failure_message(page: str, record: dict[str, Any]) -> str:
    """How a build names a snippet that failed, at one page that loads it.

    >>> base = {"snippet": "snippets/s/a.py", "returncode": 1, "timed_out": False, "stdout": "", "figures": [],
    ...         "stderr": "Traceback ...\\nValueError: boom\\n", "error_line": 3}
    >>> failure_message("s/page", base)
    'page s/page failed to execute, in snippet snippets/s/a.py:3: ValueError: boom (exit status 1)'
    >>> failure_message("s/page", base | {"returncode": 0, "stdout": "1", "stderr": "a.py:4: UserWarning: x"})[:60]
    'page s/page: snippet snippets/s/a.py wrote to stderr: a.py:4'
    """
    reason = problem(record)
    if reason.startswith("wrote to stderr"):
        return (f"page {page}: snippet {record['snippet']} {reason} (a warning fails the build: fix its cause "
                f"rather than silencing it)")
    line = f":{record['error_line']}" if record.get("error_line") and record["returncode"] else ""
    return f"page {page} failed to execute, in snippet {record['snippet']}{line}: {reason}"


def output_tail(record: dict[str, Any], lines: int = 12) -> str:
    """The last lines a failed snippet printed, stdout then stderr, indented for a build log.

    A failure's one-line message names the exception; an assert about a measurement only makes
    sense next to the numbers the program printed before it, so the log shows them too.

    >>> print(output_tail({"stdout": "a\\nratio 1.8\\n", "stderr": "Traceback\\nAssertionError\\n"}, lines=2))
        stdout: a
        stdout: ratio 1.8
        stderr: Traceback
        stderr: AssertionError
    """
    out = []
    for stream in ("stdout", "stderr"):
        text = record.get(stream) or ""
        out += [f"    {stream}: {line}" for line in text.splitlines()[-lines:]]
    return "\n".join(out)


def current_record_path(folder: Path, root: Path, name: str) -> Path:
    """Where the record of snippet ``name`` (from the repository ``root``) as it is now lives."""
    return record_path(folder, name, record_key((root / name).read_bytes(), environment(), RUNNER))


def good_record(folder: Path, snippet: str, key: str) -> Record | None:
    record = read_record(record_path(folder, snippet, key))
    return record if record is not None and problem(record) is None else None


def import_records(folders: Iterable[Path], into: Path, env: dict[str, str], runner: str) -> int:
    """Copy the records of other builds (the shards) into ``into``; refuse any made differently.

    Returns the number of records copied; raises ``ValueError`` naming the first mismatch.
    """
    count = 0
    for folder in folders:
        paths = sorted(Path(folder).rglob("*.json"))
        if not paths:
            raise ValueError(f"{folder}: no records found")
        for path in paths:
            record = read_record(path)
            if record is None:
                raise ValueError(f"{path}: not a whole record (corrupt or cut short)")
            mine = {"lock": env["lock"], "runner": runner, "python": env["python"], "backend": env["backend"]}
            for field, value in mine.items():
                if record[field] != value:
                    raise ValueError(f"{path}: made with {field} {record[field]!r}, but this build has {value!r}; "
                                     f"records from another {field} are never mixed")
            target = record_path(into, record["snippet"], record["key"])
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
            count += 1
    return count
