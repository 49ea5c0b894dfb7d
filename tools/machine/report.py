"""The machine pass: run every snippet on the machine this is on, and write one dated report of how each one ran.

    python3 tools/machine/report.py [--workers N] [--timeout S] [--only GLOB] [--out DIR]
                                    [--state DIR] [--budget S] [--expect REPORT] [--merge REPORT]
                                    [--notebooks N [--notebook-site DIR]]

For an accelerator machine (a lent GPU box, a TPU VM): it needs only ``python3`` with the
packages the snippets import (jax with its plugin, flax, optax, torch, ...), not nox, Sphinx or
a network. Each snippet runs as the site's build runs it, with the build's scheduler
(``kb.run.schedule``: an empty working directory, none of the ``JAX_*``/``XLA_*`` variables,
deprecations as errors, in processes shared with other programs where a program allows it) under
this machine's device policy (``kb.run.platforms``: on a TPU one program holds the chip at a time,
the programs that start no accelerator beside it), the timing snippets alone after the others.
Finished runs are kept in ``--state`` (default ``_build/machine-pass``), so that a call cut off at a
time limit loses nothing: run it again to go on, and ``--budget`` starts no program expected (from
the seconds of ``--expect`` reports) to end after it.

The report goes to ``DIR/<date>-<machine>-<backend>.json`` and a readable ``.md`` beside it
(default ``reports/machines/``): the machine, its devices, the versions it found and how they
differ from ``requirements.txt``; per snippet the outcome, the first error line, the backend it
started, the versions it imported, its seconds, what it printed and the sha256 of the program
(``kb.accelerator_runs`` shows a timing snippet's output beside the page's own, while the
program is unchanged). A failure on a machine whose versions differ
from the pins says so ("versions differ"), and one that imports a package the machine lacks is
"not installed here": neither is a reason to change the pins. Exit status 0 whatever failed: the
report is the result. Commit the report; nothing here changes the site's records.

``--notebooks N`` then runs the notebooks of the N pages whose programs held the accelerator
longest in the ``--expect`` reports (``chip_pages``: of the pages whose programs can all run here
and did not fail there alone), each in one kernel as a Colab reader runs it,
one after another (the kernel holds the device), with the runner of ``nox -s notebooks``
(``tools.notebooks.run_notebook``; it needs nbclient and ipykernel, which the TPU pass's pieces
carry), under the same ``--budget`` and ``--timeout`` (a cell's), kept in ``--state`` like the
programs. The notebooks are the built site's (``--notebook-site``, default ``_build/html``: build
it, or carry its ``en/_kb/notebooks``). Each program's output is compared with what it printed
alone in this pass. The report's ``notebooks`` rows (``NotebookRow``) say how each page's
notebook fared; ``reference/backends`` shows them.
"""

from __future__ import annotations

import argparse
import datetime
import fnmatch
import importlib.util
import json
import os
import platform
import re
import sys
import threading
import time
from pathlib import Path
from typing import Callable, TYPE_CHECKING, TypedDict

if TYPE_CHECKING:  # Python 3.11's; only read by a type checker (annotations are not evaluated here)
    from typing import NotRequired

ROOT = Path(__file__).resolve().parents[2]
# Run as a script by the machine's own Python, without the site's environment or conf.py (LAYOUT.md, "Imports").
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from kb.run.noise import BY_ID, split  # noqa: E402 (the run core: standard library only)
from kb.run.plan import Job, discover_pages, site_plan, snippet_digest  # noqa: E402
from kb.run.platforms import PLATFORMS, current, machine_description  # noqa: E402
from kb.run.schedule import run  # noqa: E402
from kb.run.snippet import cpu_by_design, imports, is_timing, opening_settings, pins_own_process, starts_jax  # noqa: E402
from kb.run.store import pinned_versions, problem, record  # noqa: E402

STUBS_NOTE = ("torch is the registry's CUDA build of the pinned version, run on the CPU with stand-ins for its NVIDIA "
              "libraries (tools/machine/wheels.py cuda_stubs: each answers as the real one does on a machine without an "
              "NVIDIA driver, so torch.cuda.is_available() is False and no CUDA code runs)")
TRACKED = ("jax", "jaxlib", "flax", "optax", "orbax-checkpoint", "torch", "numpy", "scipy", "transformers", "safetensors")


def installed(names=TRACKED) -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for name in names:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            pass
    return found


def _distributions() -> dict[str, str]:
    """Every distribution this Python sees, so that a control run can match more than TRACKED."""
    from importlib.metadata import distributions

    return dict(sorted((d.metadata["Name"], d.version) for d in distributions() if d.metadata["Name"]))


def outcome(record: dict, differs: dict[str, tuple[str, str]], source: str = "", accelerator: bool = False) -> str:
    """One word for how a snippet ran here.

    >>> ok = {"returncode": 0, "timed_out": False, "stdout": "1", "stderr": "", "figures": []}
    >>> bad = ok | {"returncode": 1, "stderr": "ModuleNotFoundError: No module named 'grain'"}
    >>> outcome(ok, {}), outcome(bad, {}), outcome(bad | {"stderr": "ValueError: x"}, {"jax": ("0.11.2", "0.12.0.1")})
    ('ok', 'not installed here', 'failed')
    >>> cpu = ok | {"ran_with": {"devices": [{"backend": "cpu", "count": 1, "kind": "cpu"}]}}
    >>> outcome(cpu, {}, "import jax\\n", accelerator=True), outcome(cpu, {}, "import jax\\n")
    ('fell back to the CPU', 'ok')
    >>> one_tpu = ok | {"ran_with": {"devices": [{"backend": "tpu", "count": 1, "kind": "TPU v5 lite"}]}}
    >>> outcome(one_tpu, {}, 'import os\\nos.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")\\nimport jax\\n', True)
    'emulated'

    "failed" stays "failed" whatever the versions: ``versions_differ`` turns it into "versions
    differ" only where the same program also fails on the CPU with this machine's versions.
    """
    reason = problem(record)
    if reason is None:
        devices = (record.get("ran_with") or {}).get("devices") or []
        if (accelerator and devices and devices[0]["backend"] == "cpu" and starts_jax(source)
                and not pins_own_process(source)):
            return "fell back to the CPU"
        if devices and devices[0]["backend"] != "cpu" and devices[0]["count"] == 1 and emulates(source):
            return "emulated"  # a program for several devices, on one accelerator: it used CPU devices
        return "ok"
    if "ModuleNotFoundError" in record.get("stderr", ""):
        return "not installed here"
    if record.get("timed_out"):
        return "timed out"
    return "failed"


def emulates(source: str) -> bool:
    """Whether a program asks for emulated CPU devices (``JAX_NUM_CPU_DEVICES`` in its opening
    settings), for when the machine has one accelerator only (the pattern of CONTRIBUTING.md)."""
    opening = opening_settings(source)
    return bool(opening) and any(name == "JAX_NUM_CPU_DEVICES" for name, _ in opening[0]) and not cpu_by_design(source)


def _shown(path: Path) -> str:
    """A path as a report names it: from the repository root, or its bare name outside it."""
    path = path.resolve()
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name


def versions_differ(rows: list[dict], installed_versions: dict[str, str], floors: Path = ROOT / "docs" / "_data" / "floors",
                    controls: list[Path] = (), python: str | None = None) -> None:
    """Mark "versions differ" each failed row whose program (same bytes) fails on the CPU with this jax.

    Two kinds of CPU evidence count:

    - a **control report** (``--control``): this tool's report of the same programs on a CPU-only
      machine with the *same* Python and tracked versions (``TRACKED``; the accelerator's own,
      installed there with ``pip install --target``). A row counts only where the control ran the
      same bytes and failed with the same first error line: then the failure comes with the
      versions, not with the accelerator, because with the pins every program passes in CI.
    - the committed floor report for this machine's jax release (``docs/_data/floors/jax-<version>.json``,
      ``nox -s canary -- --floors``), which the pinned Python ran.

    Without either, or for a program neither checked, a failure stays "failed".

    >>> import tempfile
    >>> rows = [{"snippet": "a.py", "sha256": "1", "outcome": "failed", "error": "TypeError: x"},
    ...         {"snippet": "b.py", "sha256": "2", "outcome": "failed", "error": "AssertionError"}]
    >>> control = {"python": "3.11.7", "backends": ["cpu"], "installed": {"jax": "0.10.2"},
    ...            "snippets": [{"snippet": "a.py", "sha256": "1", "outcome": "failed", "error": "TypeError: x"},
    ...                         {"snippet": "b.py", "sha256": "2", "outcome": "ok", "error": None}]}
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = Path(d, "control.json"); _ = path.write_text(json.dumps(control))
    ...     versions_differ(rows, {"jax": "0.10.2"}, Path(d), [path], python="3.11.7")
    >>> [r["outcome"] for r in rows]
    ['versions differ', 'failed']
    """
    for path in controls:
        control = json.loads(Path(path).read_text(encoding="utf-8"))
        if control.get("backends") != ["cpu"]:
            raise SystemExit(f"{path}: a control report must come from a CPU-only machine, not {control.get('backends')}")
        if control.get("installed") != installed_versions or (python and control.get("python") != python):
            raise SystemExit(f"{path}: a control report needs the same Python and versions as the report it explains "
                             f"(control: Python {control.get('python')}, {control.get('installed')}; "
                             f"here: Python {python}, {installed_versions})")
        failed = {c["snippet"]: c for c in control["snippets"] if c["outcome"] in ("failed", "versions differ")}
        where = _shown(Path(path))
        for row in rows:
            seen = failed.get(row["snippet"])
            if row["outcome"] == "failed" and seen and seen["sha256"] == row["sha256"] and seen["error"] == row["error"]:
                row["outcome"] = "versions differ"
                row["cpu_evidence"] = (f"fails the same way on the CPU with Python {control['python']} and "
                                       f"jax {installed_versions.get('jax')} ({where})")
    version = installed_versions.get("jax")
    path = floors / f"jax-{version}.json"
    if not version or not path.exists():
        return
    checked = json.loads(path.read_text(encoding="utf-8")).get("snippets", {})
    for row in rows:
        seen = checked.get(row["snippet"])
        # "fail" only: a program "not installable" there (its set breaks a package's own requirements) never ran.
        if row["outcome"] == "failed" and seen and seen.get("sha256") == row["sha256"] and seen.get("status") == "fail":
            row["outcome"] = "versions differ"
            row["cpu_evidence"] = f"fails on the CPU with jax {version} too ({_shown(path)})"


def reclassify(path: Path, controls: list[Path]) -> dict:
    """Apply ``versions_differ`` (with ``controls``) to a committed report and write it again, JSON and markdown.

    Runs nothing: only failed rows change, and only where the CPU evidence names their bytes."""
    report = json.loads(path.read_text(encoding="utf-8"))
    versions_differ(report["snippets"], report["installed"], controls=controls, python=report["python"])
    report["counts"] = {}
    for row in report["snippets"]:
        report["counts"][row["outcome"]] = report["counts"].get(row["outcome"], 0) + 1
    report["controls"] = sorted({*report.get("controls", []), *(_shown(Path(c)) for c in controls)})
    path.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    path.with_suffix(".md").write_text(markdown(report), encoding="utf-8")
    return report


class ReportRow(TypedDict):
    """One snippet's row of a report (``snippets``), its keys in the order of the JSON: the one place
    that spells a row's shape. ``_row`` builds it (a type checker holds its literal to this type,
    ``tests/test_machine_pass.py`` its keys and their order); ``kb.accelerator_runs`` and
    ``kb.accelerator_status`` read it."""

    snippet: str
    sha256: str  # of the program's bytes (kb.run.plan.snippet_digest)
    pages: list[str]
    outcome: str  # one of kb.run.store.OUTCOMES
    error: str | None  # kb.run.store.problem
    error_line: int | None
    backend: str | None  # the backend the program started (None: it started none)
    device: str | None
    cpu_by_design: bool  # a marked CPU pin ("# CPU by design: <reason>")
    packages: dict[str, str]  # the versions it imported
    seconds: float
    alone: bool
    how: str  # kb.run.store.HOW: a fresh process, or one shared with other programs (batch)
    noise: list[str]  # the ids of the platform messages in its stderr (kb.run.noise)
    first_try: NotRequired[str]  # why its first run, in a shared process, failed (it then ran alone)
    stdout: str
    figures: NotRequired[list[str]]  # its figures' SVG
    cpu_evidence: NotRequired[str]  # why a failure is "versions differ" (versions_differ adds it)
    caveat: NotRequired[str]  # what is known, after the run, to be off in its output (added by hand, with the reason)


def _row(record: dict, pages: list[str], differs, accelerator: bool) -> ReportRow:
    ran = record.get("ran_with") or {}
    devices = ran.get("devices") or []
    path = ROOT / record["snippet"]
    source = path.read_text(encoding="utf-8")
    _, noise = split(record.get("stderr", ""))
    return {"snippet": record["snippet"], "sha256": record.get("sha256") or snippet_digest(path), "pages": pages,
            "outcome": outcome(record, differs, source, accelerator),
            "error": problem(record), "error_line": record.get("error_line"),
            "backend": devices[0]["backend"] if devices else None,
            "device": devices[0]["kind"] if devices else None,
            "cpu_by_design": cpu_by_design(source),
            "packages": ran.get("packages", {}), "seconds": record["seconds"],
            "alone": record.get("alone", False), "how": record["how"], "noise": noise,
            **({"first_try": record["first_try"]} if record.get("first_try") else {}),
            "stdout": record["stdout"],
            # The figures of a timing program, as SVG: kb.accelerator_runs shows them in the page's box.
            **({"figures": [f["svg"] for f in record["figures"]]}
               if record.get("figures") and is_timing(source) else {})}


class NotebookRow(TypedDict):
    """One page's notebook, run in one kernel (``notebooks`` of a report): ``notebook_pass`` builds
    it, ``kb.accelerator_status`` reads it."""

    page: str
    programs: dict[str, str]  # the programs its code cells hold, with the sha256 of the bytes that ran
    outcome: str  # ok, differs (ran top to bottom; some programs printed something else than alone), failed, timed out
    seconds: float
    cells: int  # code cells, the install cell included
    restarts: int
    differs: list[str]  # the programs that printed something else than alone: "snippets/core/jit_x.py"
    error: str | None  # the last line of its first failure (an error, stderr, a timeout)
    problems: list[str]  # what the runner said (tools.notebooks), the differences included


def chip_pages(reports: list[Path], count: int, skip: set[str] = frozenset()) -> list[str]:
    """The ``count`` pages whose programs held an accelerator longest in ``reports`` (a later
    report's row of a program wins), longest first, but for those in ``skip`` (a program imports a
    package this machine lacks: its notebook would stop there) and those with a program that failed
    there alone (so would its notebook).

    >>> import tempfile
    >>> rows = [{"snippet": "a.py", "pages": ["p/one"], "backend": "tpu", "seconds": 5.0, "outcome": "ok"},
    ...         {"snippet": "b.py", "pages": ["p/two", "p/one"], "backend": "tpu", "seconds": 3.0, "outcome": "ok"},
    ...         {"snippet": "c.py", "pages": ["p/three"], "backend": "cpu", "seconds": 99.0, "outcome": "ok"},
    ...         {"snippet": "d.py", "pages": ["p/four"], "backend": "tpu", "seconds": 9.0, "outcome": "ok"},
    ...         {"snippet": "e.py", "pages": ["p/five"], "backend": "tpu", "seconds": 9.0, "outcome": "failed"}]
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = Path(d, "r.json").write_text(json.dumps({"snippets": rows}))
    ...     chip_pages([Path(d, "r.json")], 5, skip={"p/four"})
    ['p/one', 'p/two']
    """
    rows: dict[str, dict] = {}
    for path in reports:
        rows.update({row["snippet"]: row for row in json.loads(path.read_text(encoding="utf-8"))["snippets"]})
    seconds: dict[str, float] = {}
    skip = {*skip, *(page for row in rows.values() if row.get("outcome") == "failed" for page in row.get("pages", []))}
    for row in rows.values():
        if row.get("backend") not in (None, "cpu"):
            for page in set(row.get("pages", [])) - skip:
                seconds[page] = seconds.get(page, 0.0) + row["seconds"]
    return sorted(seconds, key=lambda page: (-seconds[page], page))[:count]


def lacking(path: Path) -> list[str]:
    """The modules a program imports that this Python cannot find (torch on a TPU VM's Python 3.12)."""
    return sorted(m for m in imports(path.read_text(encoding="utf-8"))
                  if m not in sys.stdlib_module_names and importlib.util.find_spec(m) is None)


def notebook_pass(pages: list[str], site: Path, state: Path, *, programs: dict[str, list[str]], alone: dict[str, str],
                  timeout: float, deadline: float, expect: dict[str, float], kept: dict[str, NotebookRow],
                  log=print, each: Callable[[dict[str, NotebookRow]], None] = lambda rows: None) -> dict[str, NotebookRow]:
    """Run the notebooks of ``pages`` one after another, each in one kernel (``tools.notebooks``),
    and return every row that holds for the programs as they are now: ``kept`` ones (a merged
    report's), this sitting's (``state/notebooks.jsonl``) and the new ones. A page with such a row
    is not run again; no notebook starts that is expected (the sum of its programs' ``expect``,
    30 s for one unknown) to end after ``deadline``. ``alone``: what each program printed alone in
    this pass, the outputs its cell is compared with. ``each`` hears the rows after each notebook."""
    sys.path.insert(0, str(ROOT))
    from tools.notebooks import DIFFERS, notebooks, run_notebook

    path = state / "notebooks.jsonl"
    rows = dict(kept)
    for line in path.read_text(encoding="utf-8").splitlines() if path.exists() else []:
        try:
            row = json.loads(line)
        except ValueError:
            continue  # cut off by a call stopped mid-write
        rows[row["page"]] = row
    now = {page: {n: snippet_digest(ROOT / n) for n in programs.get(page, [])} for page in {*pages, *rows}}
    rows = {page: row for page, row in rows.items() if row["programs"] == now[page]}
    for page, notebook in notebooks(site, "en", pages):
        if page in rows:
            continue
        cost = sum(expect.get(name, 30.0) for name in now[page])
        if time.time() + cost > deadline:
            log(f"notebook {page}: not started, expected {cost:.0f} s, after the budget")
            continue
        result = run_notebook(notebook, page, timeout, {n: alone[n] for n in now[page] if n in alone})
        failures = [p for p in result.problems if DIFFERS not in p.partition("\n")[0]]  # an error, stderr, a timeout
        outcome = (("timed out" if any("no result after" in p for p in failures) else "failed") if failures
                   else "differs" if result.differs else "ok")
        row: NotebookRow = {"page": page, "programs": now[page], "outcome": outcome, "seconds": result.seconds,
                            "cells": result.cells, "restarts": result.restarts, "differs": result.differs,
                            "error": failures[0].strip().splitlines()[-1] if failures else None, "problems": result.problems}
        state.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(row) + "\n")
        rows[page] = row
        log(f"notebook {page}: {row['outcome']} ({row['seconds']:.1f} s, {len(row['differs'])} programs printed something else)")
        each(rows)
    return rows


def sitting_runs(state: Path) -> dict[str, dict]:
    """The records of every program run in this sitting (``state/done.jsonl``), by name; a line cut
    off by a call that was stopped mid-write is skipped."""
    done: dict[str, dict] = {}
    path = state / "done.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines() if path.exists() else []:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        done[record["snippet"]] = record
    return done


def expected_seconds(reports: list[Path]) -> dict[str, float]:
    """Each snippet's expected seconds on this kind of machine, from earlier reports of it (the
    newest row wins): its time there, a fifth more and 5 s, so that a call starts no program it
    is not expected to finish. An estimate only, whatever the snippet's bytes: nothing of the row
    is kept."""
    expect: dict[str, float] = {}
    for path in reports:
        for row in json.loads(path.read_text(encoding="utf-8"))["snippets"]:
            if row.get("seconds"):
                expect[row["snippet"]] = round(1.2 * row["seconds"] + 5, 1)
    return expect


def batch_pass(items: list[Job], state: Path, *, timeout: float, budget: float, workers: int, platform,
               log=print, expect: dict[str, float] | None = None,
               kept: Callable[[dict[str, dict]], None] = lambda done: None) -> dict[str, dict]:
    """Run every job with the build's scheduler under ``platform``'s policy (``kb.run.schedule``),
    resuming from ``state``; records by name.

    A program recorded in ``state`` with the same bytes is not run again. No program starts that is
    expected (``expect``: seconds by snippet name, none when unknown) to end after ``budget``
    seconds: a shorter one after it may still run, and the next call runs the rest. ``kept`` hears
    the records so far after each one is kept (the sitting's clock, the report so far).
    """
    state.mkdir(parents=True, exist_ok=True)
    done_path = state / "done.jsonl"
    current_bytes = {i.name: snippet_digest(i.path) for i in items}
    done = {n: r for n, r in sitting_runs(state).items() if r.get("sha256") == current_bytes.get(n)}
    lock = threading.Lock()

    def keep(record: dict) -> None:
        record = {**record, "sha256": current_bytes[record["snippet"]]}
        with lock:
            done[record["snippet"]] = record
            with open(done_path, "a", encoding="utf-8") as out:
                out.write(json.dumps(record) + "\n")
            kept(done)
        log(f"{record['snippet']}: {'ok' if problem(record) is None else problem(record)[:120]} "
            f"({record['seconds']:.1f} s, {record['how']})")

    run([i for i in items if i.name not in done], timeout=timeout, workers=workers, platform=platform,
        cost=expect, deadline=time.time() + budget, work=state, done=keep)
    return done


class SittingClock:
    """The sitting's start, calls and wall seconds in ``pass.json`` of the state folder, written when
    a call starts and again after each program it keeps: a call cut off at the device's time limit
    (before it writes its report) still counts, up to its last kept program (the sitting of
    2026-12-06 16:41 UTC lost its first call's 537 s that way)."""

    def __init__(self, path: Path, started: datetime.datetime):
        self.path = path
        self.meta = (json.loads(path.read_text(encoding="utf-8")) if path.exists()
                     else {"started": started.isoformat(timespec="seconds"), "wall_seconds": 0.0, "calls": 0})
        self.meta["calls"] += 1
        self.before, self.clock = self.meta["wall_seconds"], time.perf_counter()
        self.tick()

    def tick(self) -> dict:
        self.meta["wall_seconds"] = round(self.before + time.perf_counter() - self.clock, 1)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(self.meta), encoding="utf-8")
        return self.meta


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=min(8, os.cpu_count() or 1),
                        help="programs at once (default: the CPU cores, at most 8)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per snippet (default 600)")
    parser.add_argument("--only", default="*", help="globs of snippet names, comma-separated, e.g. 'performance/*,xla/*'")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "machines")
    parser.add_argument("--state", type=Path, default=ROOT / "_build" / "machine-pass",
                        help="where finished runs are kept between calls (default _build/machine-pass)")
    parser.add_argument("--budget", type=float, default=float("inf"),
                        help="start no program after this many seconds (none expected to end after them, with "
                             "--expect); run again to go on")
    parser.add_argument("--merge", type=Path, action="append", default=[],
                        help="a committed report of an earlier sitting on this kind of machine; its rows for "
                             "programs unchanged since (same sha256) are kept, and only the others run")
    parser.add_argument("--expect", type=Path, action="append", default=[],
                        help="an earlier report of this kind of machine; its seconds are the expected "
                             "time of each program, and no program starts that is expected to end after --budget")
    parser.add_argument("--report-every", type=float, default=30.0, metavar="SECONDS",
                        help="write the report so far at most this often while the pass runs, so that a "
                             "call cut off at the device's time limit still leaves one (default 30)")
    parser.add_argument("--control", type=Path, action="append", default=[],
                        help="a report of the same programs on a CPU-only machine with the same Python and versions: "
                             "a failure it shows too (same bytes, same error) is 'versions differ'")
    parser.add_argument("--reclassify", type=Path, metavar="REPORT",
                        help="run nothing: apply --control (and the floor reports) to REPORT and write it again")
    parser.add_argument("--notebooks", type=int, default=0, metavar="N",
                        help="then run the notebooks of the N pages whose programs held the accelerator longest "
                             "in the --expect reports, one kernel each (tools.notebooks)")
    parser.add_argument("--notebook-site", type=Path, default=ROOT / "_build" / "html",
                        help="the built site whose en/_kb/notebooks/ they are (default _build/html)")
    parser.add_argument("--policy", choices=sorted(PLATFORMS), default=None,
                        help="run under this platform's policy (kb.run.platforms; default: this machine's), e.g. "
                             "tpu on a CPU to repeat a TPU pass's way of running programs")
    args = parser.parse_args(argv)
    if args.reclassify:
        report = reclassify(args.reclassify, args.control)
        print(f"{report['counts']}; report: {args.reclassify} and .md", file=sys.stderr)
        return 0

    call_started = time.time()
    site = site_plan(ROOT / "docs", discover_pages(ROOT / "docs"))
    chosen: list[str] = []
    if args.notebooks:
        cannot = {page for page, names in site.pages.items() if any(lacking(ROOT / name) for name in names)}
        chosen = chip_pages(args.expect, args.notebooks, cannot)
    if chosen:  # before any program runs: a notebook missing here is named now
        sys.path.insert(0, str(ROOT))
        from tools.notebooks import notebooks

        notebooks(args.notebook_site, "en", chosen)
    pages = {name: site.pages_of(name) for name in site.jobs}
    names = sorted(n for n in pages if any(fnmatch.fnmatch(n.removeprefix("snippets/"), glob) for glob in args.only.split(",")))
    if not names:
        parser.error(f"no snippet matches {args.only!r}")
    here, pinned = installed(), pinned_versions(ROOT / "requirements.txt")
    differs = {name: (v, pinned[name]) for name, v in here.items() if name in pinned and pinned[name] != v}
    started = datetime.datetime.now(datetime.timezone.utc)
    jobs = [site.jobs[n] for n in names]
    kept: list[dict] = []
    kept_notebooks: dict[str, NotebookRow] = {}
    sittings: list[dict] = []
    # The report covers the whole plan: --only chooses what runs in this call, and the earlier
    # sittings' rows of every unchanged program stay in it (a row of a changed program is dropped,
    # so that program is pending until it runs again).
    plan = sorted(pages)
    digests = {n: snippet_digest(ROOT / n) for n in plan}
    for earlier in args.merge:
        report = json.loads(earlier.read_text(encoding="utf-8"))
        sittings += report.get("pass", {}).get("sittings", [])
        # A program that did not run there for want of a package runs again: this sitting may have it;
        # so does one whose output is known to be off (a caveat).
        kept += [row for row in report["snippets"] if digests.get(row["snippet"]) == row["sha256"]
                 and row["outcome"] != "not installed here" and not row.get("caveat")
                 and row["snippet"] not in {k["snippet"] for k in kept}]
        # A notebook's row stays while its page holds the same programs, unchanged.
        kept_notebooks.update({row["page"]: row for row in report.get("notebooks", []) if row["page"] not in kept_notebooks
                               and row["programs"] == {n: digests[n] for n in site.pages.get(row["page"], [])}})
    jobs = [j for j in jobs if j.name not in {row["snippet"] for row in kept}]
    distributions = _distributions()  # read once: the report is written every --report-every seconds
    policy = PLATFORMS[args.policy] if args.policy else current()

    def write(records: list[dict], meta: dict | None, notebook_rows: dict[str, NotebookRow]) -> tuple[dict, Path]:
        """Write the report of ``records`` (this call's and this sitting's), the merged rows and the notebooks'."""
        started_at = datetime.datetime.fromisoformat(meta["started"]) if meta else started
        accelerator = any(((r.get("ran_with") or {}).get("devices") or [{}])[0].get("backend") not in (None, "cpu")
                          for r in records) or any(row["backend"] not in (None, "cpu") for row in kept)
        rows = [_row(r, pages.get(r["snippet"], []), differs, accelerator) for r in records]
        rows = sorted(kept + rows, key=lambda r: r["snippet"])
        versions_differ(rows, here, controls=args.control, python=platform.python_version())
        backends = sorted({r["backend"] for r in rows if r["backend"]})
        kinds = sorted({r["device"] for r in rows if r["device"] and r["backend"] != "cpu"} or {r["device"] for r in rows if r["device"]})
        machine = machine_description(kinds)
        noise = sorted({n for r in rows for n in r["noise"]})
        report = {"date": started_at.isoformat(timespec="seconds"), "machine": machine, "backends": backends,
                  "python": platform.python_version(), "installed": here, "distributions": distributions, "pinned": {n: pinned[n] for n in here if n in pinned},
                  "differs_from_pins": {n: {"here": a, "pinned": b} for n, (a, b) in differs.items()},
                  "workers": args.workers, "counts": {},
                  "noise": {n: {"source": BY_ID[n].source, "reason": BY_ID[n].reason} for n in noise},
                  **({"controls": [str(c) for c in args.control]} if args.control else {}),
                  **({"torch_cuda_stubs": STUBS_NOTE} if "kb-cuda-stubs" in os.environ.get("LD_LIBRARY_PATH", "") else {}),
                  "snippets": rows,
                  **({"notebooks": [notebook_rows[page] for page in sorted(notebook_rows)]} if notebook_rows else {})}
        if meta is not None:
            this = {"started": meta["started"], "wall_seconds": meta["wall_seconds"], "calls": meta["calls"],
                    "programs": len(sitting_runs(args.state))}  # every program this sitting ran, whatever call
            # A merged report of an earlier call of this same sitting already holds it: keep one entry per
            # sitting, the latest (its calls and seconds include the earlier calls').
            others = [s for s in {s["started"]: s for s in sittings}.values() if s["started"] != this["started"]]
            report["pass"] = {"command": f"{policy.pass_command} (python3 tools/machine/report.py)",
                              "wall_seconds": round(sum(s["wall_seconds"] for s in others) + meta["wall_seconds"], 1),
                              "calls": sum(s["calls"] for s in others) + meta["calls"], "sittings": others + [this],
                              "pending": [n for n in plan if n not in {r["snippet"] for r in rows}],
                              **({"pending_notebooks": [p for p in chosen if p not in notebook_rows]} if chosen else {})}
        for row in rows:
            report["counts"][row["outcome"]] = report["counts"].get(row["outcome"], 0) + 1
        slug = re.sub(r"[^a-z0-9]+", "-", f"{started_at.date()}-{platform.machine()}-{'-'.join(kinds or ['cpu'])}".lower()).strip("-")
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / f"{slug}.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        (args.out / f"{slug}.md").write_text(markdown(report), encoding="utf-8")
        return report, args.out / slug

    say = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731
    say(f"running {len(jobs)} snippets under the {policy.label}'s policy (exclusive device: {policy.exclusive}), "
        f"state in {args.state}")
    clock = SittingClock(args.state / "pass.json", started)
    last = [time.perf_counter()]

    def on_kept(done: dict[str, dict]) -> None:
        # The report so far, now and then: a call cut off at the device's limit keeps what it ran.
        meta = clock.tick()
        if time.perf_counter() - last[0] >= args.report_every:
            last[0] = time.perf_counter()
            write(list(done.values()), meta, kept_notebooks)

    # A program that imports a package this machine lacks (torch on a TPU VM's Python 3.12) is not
    # run: its row says which package, as its own run would (ModuleNotFoundError), at no cost.
    missing = {j.name: lacking(j.path) for j in jobs}
    unrun = [record(j, {"returncode": 1, "timed_out": False, "seconds": 0.0, "stdout": "", "figures": [],
                        "stderr": f"ModuleNotFoundError: No module named {missing[j.name][0]!r} (not run: this machine "
                                  "lacks it)", "error_line": None, "ran_with": {}}, how="not run", alone=False)
             for j in jobs if missing[j.name]]
    records = list(batch_pass([j for j in jobs if not missing[j.name]], args.state, timeout=args.timeout,
                              budget=args.budget, workers=args.workers, platform=policy, log=say,
                              expect=expected_seconds(args.expect), kept=on_kept).values())
    records += [{**r, "sha256": snippet_digest(ROOT / r["snippet"])} for r in unrun]
    meta = clock.tick()
    report, path = write(records, meta, kept_notebooks)
    if chosen:
        alone = {row["snippet"]: row["stdout"] for row in report["snippets"] if row["outcome"] in ("ok", "emulated")}
        notebook_rows = notebook_pass(
            chosen, args.notebook_site, args.state, programs=site.pages, alone=alone, timeout=args.timeout,
            deadline=call_started + args.budget, expect=expected_seconds(args.expect), kept=kept_notebooks, log=say,
            each=lambda rows: write(records, clock.tick(), rows))
        report, path = write(records, clock.tick(), notebook_rows)
    say(f"{report['counts']}; report: {path}.json and .md")
    return 0


def markdown(report: dict) -> str:
    run = report.get("pass")
    how = ("under the device policy (one program at a time on the device, in shared processes where it can; "
           f"programs that start no accelerator beside it, {report['workers']} at a time)" if run
           else f"{report['workers']} programs at a time")
    lines = [f"# Snippets on {report['machine']}", "",
             f"Run {report['date']} with Python {report['python']}, {how}, "
             f"backends started: {', '.join(report['backends']) or 'none'}.", "",
             "Versions here: " + ", ".join(f"{n} {v}" for n, v in report["installed"].items()) + ".",
             *([f"{report['torch_cuda_stubs'][0].upper()}{report['torch_cuda_stubs'][1:]}."] if report.get("torch_cuda_stubs") else []), ""]
    if report["differs_from_pins"]:
        lines += ["Differs from `requirements.txt`: " + ", ".join(
            f"{n} {d['here']} (pinned {d['pinned']})" for n, d in report["differs_from_pins"].items()) + ".", ""]
    lines += ["Outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(report["counts"].items())) + ".", ""]
    if run:
        lines += [f"Pass: `{run['command']}`, {run['calls']} calls in {len(run['sittings'])} sitting(s), "
                  f"{run['wall_seconds']:.0f} s of wall time; "
                  + (f"**{len(run['pending'])} programs not run yet** (listed at the end)." if run["pending"]
                     else "complete: no program pending."), ""]
    lines += ["| snippet | outcome | backend | how | seconds | first error |", "|---|---|---|---|---:|---|"]
    for row in report["snippets"]:
        error = (row["error"] or "").replace("|", "\\|")[:160]
        lines.append(f"| `{row['snippet']}` | {row['outcome']} | {row['backend'] or '-'} | {row.get('how') or '-'} "
                     f"| {row['seconds']:.1f} | {error} |")
    explained = [row for row in report["snippets"] if row["outcome"] in ("failed", "versions differ", "timed out")]
    if explained:
        lines += ["", "## What failed, and the CPU evidence", "",
                  "A failure is \"versions differ\" only where a CPU run with this machine's versions fails the "
                  "same way (a control report or a floor report; `versions_differ` in `tools/machine/report.py`). "
                  "The others are this machine's: the accelerator, its sandbox, or the program.", ""]
        lines += [f"- `{row['snippet']}` ({row['outcome']}): {(row['error'] or '').strip()}"
                  + (f"; {row['cpu_evidence']}" if row.get("cpu_evidence") else "") for row in explained]
    caveats = [row for row in report["snippets"] if row.get("caveat")]
    if caveats:
        lines += ["", "## Known to be off in an output", ""]
        lines += [f"- `{row['snippet']}` ({row['outcome']}): {row['caveat']}" for row in caveats]
    if report.get("controls"):
        lines += ["", "Control reports: " + ", ".join(f"`{c}`" for c in report["controls"]) + "."]
    if report.get("notebooks"):
        lines += ["", "## Notebooks, each in one kernel", "",
                  "Each program's output compared with what it printed alone in this pass (tools/notebooks.py).", "",
                  "| page | outcome | seconds | code cells | restarts | programs that printed something else |",
                  "|---|---|---:|---:|---:|---|"]
        lines += [f"| {row['page']} | {row['outcome']} | {row['seconds']:.1f} | {row['cells']} | {row['restarts']} "
                  f"| {', '.join(f'`{name}`' for name in row['differs']) or '-'} |" for row in report["notebooks"]]
        problems = [f"- {p}".replace("\n", "\n  ") for row in report["notebooks"] for p in row["problems"]]
        lines += ["", *problems] if problems else []
    if run and run["pending"]:
        lines += ["", "Not run yet: " + ", ".join(f"`{name}`" for name in run["pending"]) + "."]
    if run and run.get("pending_notebooks"):
        lines += ["", "Notebooks not run yet: " + ", ".join(run["pending_notebooks"]) + "."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
