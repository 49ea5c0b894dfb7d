"""The release canary: run the site's snippets against other releases of its packages.

    python -m tools.canary [SPEC ...] [--pre] [--out DIR]      nox -s canary -- jax==0.13.0 flax
    python -m tools.canary --floors [SPEC ...]                 nox -s canary -- --floors

A SPEC is ``name==version`` or a bare ``name`` (its newest release on the package index); with
none, the newest releases of the JAX packages the site pins (``CANARY_PACKAGES``). ``--pre``
admits pre-releases. The pins never change: the canary builds an environment of its own.

How it runs (``canary``):

1. **An overlay environment** in ``.nox/canary/<slug>``: a virtualenv whose ``.pth`` file puts the
   build environment's packages (``.nox/kb``) after its own, into which pip installs only what the
   specs ask for (``jax==X`` brings ``jaxlib==X``) and whatever their requirements force pip to
   move. A few dozen MB instead of another copy of torch; every other package is the pinned one.
   ``pip check`` runs after it, and the report keeps what it says.
2. **Only the affected snippets run**: those that import a distribution whose version changed or
   one that depends on it (``flax`` depends on ``optax``, so a new optax re-runs the Flax pages;
   a PyTorch-only snippet never runs for a new jax), and of those only the ones without a good
   record in ``<out>/records`` from an earlier canary (same bytes, versions and runner: the record
   key), so walking the floors again after a few edits runs the edited snippets only. They run exactly as the build runs them
   (``kb.run.schedule.run``: the reader's environment, warnings as errors), under the
   overlay's interpreter, and their records go to ``<out>/records``.
3. **One report**, ``<out>/report.json`` and ``<out>/report.md``: what was asked and installed,
   then per page and snippet pass / fail / not affected, the first line of the error, and for a
   failure that looks like API drift (an ``AttributeError`` or ``ImportError`` naming a missing
   API, an unexpected keyword, a deprecation or removal warning) that message. Exit status 1 when
   a snippet failed or pip could not install the specs, so a nightly job can open an issue.

``--floors`` walks each package's older releases, newest first (``FLOOR_STEPS``, or the specs
given): each step runs only the snippets that passed the step before, so a page drops out of the
walk at its first failure, and writes ``docs/_data/floors/<package>-<version>.json`` (the
snippets' content hashes with their results, the date and the machine). ``kb.floors`` turns those
committed reports into each page's "runs on" line and the migration page's table.

Why our own code: nox, pip and venv do the environments; no tool we know of runs a documentation
site's programs against a matrix of releases and names per page the API that broke. The runner
and its records are the build's own (``kb.run.runner``, ``kb.run.store``).
"""

from __future__ import annotations

import argparse
import ast
import datetime
import hashlib
import json
import platform
import re
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path
from typing import NotRequired, TypedDict

import conf

from .site import BUILD, DOCS, ROOT

from kb.run.plan import snippet_digest  # noqa: E402 (importable once conf has put docs/_ext on the path)
from kb.run.platforms import canonical, machine_description  # noqa: E402

FLOORS = DOCS / "_data" / "floors"
# The packages the canary follows by default: the JAX stack that requirements.txt pins.
CANARY_PACKAGES = ("jax", "jaxlib", "flax", "optax", "orbax-checkpoint", "grain")
COMPANIONS = {"jax": "jaxlib"}  # jax==X needs jaxlib==X
# The floor walk: the last releases of the three minor versions before the pinned one (jax, flax)
# and the four optax releases before the pinned one (optax's 0.2.x releases are its minor steps).
FLOOR_STEPS = ("jax==0.11.2", "jax==0.10.2", "jax==0.9.2",
               "flax==0.11.2", "flax==0.10.7", "flax==0.9.0",
               "optax==0.2.7", "optax==0.2.6", "optax==0.2.5", "optax==0.2.4")
FORMAT = 2  # 2: requires, conflicts and the status not installable (2026-12-07)
DRIFT = re.compile(r"(DeprecationWarning|FutureWarning|PendingDeprecationWarning|has no attribute|"
                   r"cannot import name|No module named|unexpected keyword argument|"
                   r"missing \d+ required (positional|keyword)|is deprecated|was removed|has been removed|"
                   r"no longer)")


def parse_spec(text: str) -> tuple[str, str | None]:
    """``"jax==0.11.2"`` -> ``("jax", "0.11.2")``; ``"flax"`` -> ``("flax", None)``; anything else is an error.

    >>> parse_spec("jax==0.11.2"), parse_spec("Flax")
    (('jax', '0.11.2'), ('flax', None))
    >>> parse_spec("jax>=0.4")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: jax>=0.4: expected name==version or a bare name (newest release), e.g. jax==0.11.2
    """
    match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)(?:==([A-Za-z0-9.+!-]+))?", text.strip())
    if match is None:
        raise argparse.ArgumentTypeError(
            f"{text}: expected name==version or a bare name (newest release), e.g. jax==0.11.2")
    return canonical(match[1]), match[2]


def with_companions(specs: list[tuple[str, str | None]]) -> list[tuple[str, str | None]]:
    """Example:

    >>> with_companions([("jax", "0.11.2")])
    [('jax', '0.11.2'), ('jaxlib', '0.11.2')]
    """
    names = {name for name, _ in specs}
    out = list(specs)
    for name, version in specs:
        companion = COMPANIONS.get(name)
        if companion and companion not in names:
            out.append((companion, version))
    return out


def pip_args(specs: list[tuple[str, str | None]]) -> list[str]:
    """Example:

    >>> pip_args([("jax", "0.11.2"), ("flax", None)])
    ['jax==0.11.2', '--upgrade', 'flax']
    """
    pinned = [f"{n}=={v}" for n, v in specs if v]
    newest = [n for n, v in specs if not v]
    return pinned + (["--upgrade", *newest] if newest else [])


def slug(specs: list[tuple[str, str | None]], pre: bool) -> str:
    """Example:

    >>> slug([("jax", "0.11.2"), ("jaxlib", "0.11.2")], False)
    'jax-0.11.2_jaxlib-0.11.2'
    """
    text = "_".join(f"{n}-{v or 'newest'}" for n, v in sorted(specs)) + ("_pre" if pre else "")
    return text if len(text) <= 80 else hashlib.sha256(text.encode()).hexdigest()[:16]


# --------------------------------------------------------------------------------------------
# Which snippets a change of versions touches
# --------------------------------------------------------------------------------------------


def imported_modules(source: str) -> set[str]:
    """The top-level modules a program imports, anywhere in it, and in the Python code it hands a
    child process: a string constant that parses as a program with imports (``python -c CHILD``,
    a script written to a file and run with ``sys.executable``). A program whose JAX runs only in
    a child imports nothing but ``subprocess`` itself; without its children's imports it was never
    run on an older release (12 such programs until 2026-12-07, ``performance/meas_gpu_env.py``
    among them). The child runs under the same interpreter (``sys.executable``, the overlay's), so
    it imports the overlay's releases.

    >>> sorted(imported_modules("import jax.numpy as jnp\\nfrom flax import nnx\\ndef f():\\n    import optax"))
    ['flax', 'jax', 'optax']
    >>> sorted(imported_modules("import subprocess, sys\\nCHILD = 'from jaxlib import xla_client'\\n"
    ...                         "subprocess.run([sys.executable, '-c', CHILD])"))
    ['jaxlib', 'subprocess', 'sys']
    >>> sorted(imported_modules("import textwrap\\nP = textwrap.dedent('\\\\n    import jax\\\\n    print(1)\\\\n')"))
    ['jax', 'textwrap']
    >>> sorted(imported_modules('print("import jax is not code here: it has words around it")'))
    []
    """
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "import" in node.value:
            try:
                child = textwrap.dedent(node.value)
                found |= imported_modules(child) if child != source else set()
            except (SyntaxError, ValueError):
                pass  # prose, a shell line, a fragment of an f-string: not a program
    return found


def dependents(changed: set[str], requires: dict[str, set[str]]) -> set[str]:
    """The changed distributions and every distribution that depends on one of them, transitively.

    >>> sorted(dependents({"optax"}, {"flax": {"optax", "jax"}, "optax": {"jax"}, "orbax-checkpoint": {"jax"}}))
    ['flax', 'optax']
    """
    out = set(changed)
    grew = True
    while grew:
        grew = False
        for dist, needs in requires.items():
            if dist not in out and needs & out:
                out.add(dist)
                grew = True
    return out


def applicable(requirements: list[str] | None) -> list[str]:
    """A distribution's requirements that apply to a plain install (no extras) on this machine.

    >>> applicable(["jax>=0.11.1", "numpy; python_version < '3'", "rich; extra == 'all'"])
    ['jax>=0.11.1']
    """
    from packaging.requirements import Requirement

    out = []
    for text in requirements or []:
        requirement = Requirement(text)
        if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
            out.append(text)
    return out


def installed_graph() -> tuple[dict[str, str], dict[str, set[str]], dict[str, set[str]], dict[str, list[str]]]:
    """In this interpreter: every distribution's version, what each requires (names), which
    distributions provide each top-level module, and each distribution's requirements as written
    (``Requires-Dist``, those that apply: ``applicable``)."""
    from importlib.metadata import distributions, packages_distributions

    versions, requires, written = {}, {}, {}
    for dist in distributions():
        name = canonical(dist.metadata["Name"])
        if name in versions:  # an overlay's own copy comes first on sys.path and wins
            continue
        versions[name] = dist.version
        written[name] = applicable(dist.requires)
        requires[name] = {canonical(re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", r)[0]) for r in written[name]}
    modules = {module: {canonical(d) for d in dists} for module, dists in packages_distributions().items()}
    return versions, requires, modules, written


def conflicts(versions: dict[str, str], written: dict[str, list[str]], changed: set[str]) -> dict[str, list[str]]:
    """Each distribution whose own requirements this set of versions breaks, with why: the set
    pip could not install together (``pip install`` in an overlay moves one package and only warns;
    the walk must not count a program as passing on a set that no reader can install). Only
    requirements of or on a changed distribution count (the pins' own set is the build's).

    >>> conflicts({"flax": "0.12.12", "jax": "0.10.2", "optax": "0.2.8"},
    ...           {"flax": ["jax>=0.11.1", "optax"], "optax": ["jax>=0.5"], "jax": []}, {"jax"})
    {'flax': ['flax 0.12.12 requires jax>=0.11.1 (this set has jax 0.10.2)']}
    """
    from packaging.requirements import Requirement

    found: dict[str, list[str]] = {}
    for name, requirements in written.items():
        for text in requirements:
            requirement = Requirement(text)
            target = canonical(requirement.name)
            if name not in changed and target not in changed:
                continue
            have = versions.get(target)
            if have is None:
                found.setdefault(name, []).append(f"{name} {versions[name]} requires {text} (not installed)")
            elif not requirement.specifier.contains(have, prereleases=True):
                found.setdefault(name, []).append(f"{name} {versions[name]} requires {text} (this set has {target} {have})")
    return found


def closure(names: set[str], requires: dict[str, set[str]]) -> set[str]:
    """The distributions and everything they require, transitively.

    >>> sorted(closure({"flax"}, {"flax": {"jax", "optax"}, "optax": {"jax"}, "jax": {"jaxlib"}}))
    ['flax', 'jax', 'jaxlib', 'optax']
    """
    out, todo = set(), list(names)
    while todo:
        name = todo.pop()
        if name not in out:
            out.add(name)
            todo.extend(requires.get(name, ()))
    return out


def uses(source: str, modules: dict[str, set[str]]) -> set[str]:
    """The distributions whose modules a program (or its child processes) imports."""
    return set().union(*(modules.get(m, {canonical(m)}) for m in imported_modules(source)))


def affected(source: str, touched: set[str], modules: dict[str, set[str]]) -> bool:
    """Whether a program imports a module of a touched distribution.

    >>> affected("import torch", {"jax"}, {"torch": {"torch"}, "jax": {"jax"}})
    False
    >>> affected("from flax import nnx", {"optax", "flax"}, {"flax": {"flax"}})
    True
    """
    return bool(uses(source, modules) & touched)


# --------------------------------------------------------------------------------------------
# Reading a record into a report entry
# --------------------------------------------------------------------------------------------


def drift_message(stderr: str) -> str | None:
    r"""The exception or warning line of a failure that names a missing, moved or deprecated API
    (None: not drift). Traceback lines are indented (the source they quote included), so only
    unindented lines count, the last one first.

    >>> drift_message("Traceback ...\n  File 'x.py', line 3\n    raise AttributeError(f'... has no attribute')\n"
    ...               "AttributeError: module 'jax' has no attribute 'set_mesh'")
    "AttributeError: module 'jax' has no attribute 'set_mesh'"
    >>> drift_message("Traceback ...\n    assert x  # no longer kept\nAssertionError") is None
    True
    """
    for line in reversed(stderr.splitlines()):
        if line[:1].isspace() or line.startswith("Traceback"):
            continue
        if DRIFT.search(line):
            return line.strip()[:300]
    return None


class Entry(TypedDict):
    """One snippet's line of a report (``snippets``), its keys in the order of the JSON: the one
    place that spells its shape (``entry`` and ``run_inside`` build it; a floor report keeps it
    without ``seconds``, ``floor_summary``, and ``kb.floors`` reads that)."""

    status: str  # pass, fail, not installable (a package it loads requires other versions), not affected
    sha256: str  # of the snippet's bytes
    seconds: NotRequired[float]  # a run's (pass, fail)
    error: NotRequired[str]  # why it failed (kb.run.store.problem), that no record was written, or
    # which requirements the set breaks (not installable)
    line: NotRequired[int | None]  # the snippet's line where the exception escaped
    drift: NotRequired[str | None]  # the message of an API drift (drift_message)


def entry(record: dict | None, snippet_bytes: bytes) -> Entry:
    """One snippet's line of the report."""
    from kb.run.store import problem

    sha = hashlib.sha256(snippet_bytes).hexdigest()  # kb.run.plan.snippet_digest, of bytes already read
    if record is None:
        return Entry(status="fail", sha256=sha, error="no record was written (the runner lost it)", drift=None)
    reason = problem(record)
    if reason is None:
        return Entry(status="pass", sha256=sha, seconds=record["seconds"])
    drift = drift_message(record["stderr"])
    return Entry(status="fail", sha256=sha, seconds=record["seconds"], error=installed_path(reason)[:300],
                 line=record.get("error_line"), drift=drift and installed_path(drift))


def installed_path(message: str) -> str:
    """A message with each installed file named from ``site-packages/`` on: the reports are committed and
    shown on the migration page, where the folder of the machine that walked (a checkout, a worktree) says
    nothing.

    >>> installed_path("cannot import name 'x' from 'jax._src.core' (/work/a/.nox/kb/lib/python3.12/site-packages/jax/_src/core.py)")
    "cannot import name 'x' from 'jax._src.core' (site-packages/jax/_src/core.py)"
    """
    return re.sub(r"(?<![\w.])/[^\s()'\"]*/site-packages/", "site-packages/", message)


# --------------------------------------------------------------------------------------------
# The overlay environment
# --------------------------------------------------------------------------------------------


def make_overlay(where: Path, specs: list[tuple[str, str | None]], pre: bool, pip_extra: list[str]) -> dict:
    """Create (or refresh) the overlay and install the specs; returns pip's outcome."""
    python = where / "bin" / "python"
    if not python.exists():
        # No pip of its own (ensurepip costs 6 s here): the build environment's pip, reached through
        # the .pth below, runs under the overlay's interpreter and so installs into the overlay.
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    purelib = Path(subprocess.check_output([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                           text=True).strip())
    base = [sysconfig.get_paths()["purelib"]]
    if sysconfig.get_paths()["platlib"] not in base:
        base.append(sysconfig.get_paths()["platlib"])
    (purelib / "kb-build-environment.pth").write_text("\n".join(base) + "\n", encoding="utf-8")
    command = [str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q",
               *(["--pre"] if pre else []), *pip_extra, *pip_args(specs)]
    done = subprocess.run(command, capture_output=True, text=True)
    check = subprocess.run([str(python), "-m", "pip", "check", "--disable-pip-version-check"],
                           capture_output=True, text=True)
    noise = re.compile(r"^WARNING: Location '.*' is ignored")
    errors = [l for l in done.stderr.splitlines() if l.strip() and not noise.match(l)]
    conflicts = [l for l in check.stdout.splitlines() if l.strip() and not l.startswith("No broken")]
    return {"ok": done.returncode == 0, "command": " ".join(command[3:]), "errors": errors[-12:],
            "pip_check": conflicts}


def inside(python: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(python), "-m", "tools.canary", *args], cwd=ROOT, capture_output=True, text=True)


# --------------------------------------------------------------------------------------------
# Inside the overlay: run the touched snippets (``--inside``)
# --------------------------------------------------------------------------------------------


def run_inside(docs: Path, out: Path, base_versions: dict[str, str], only: set[str] | None) -> dict:
    from kb.run.runner import earlier_seconds
    from kb.run.schedule import run
    from kb.run.store import good_record, read_record, record_path, write_record

    from .shards import site_plan

    versions, requires, modules, written = installed_graph()
    changed = {n: [base_versions.get(n), v] for n, v in versions.items() if base_versions.get(n) != v}
    broken = conflicts(versions, written, set(changed))
    # The stamp makes the overlay's lock (part of every record key) the versions it runs with.
    lock = hashlib.sha256(json.dumps(sorted(versions.items())).encode()).hexdigest()
    (Path(sys.prefix) / ".requirements.sha256").write_text(lock)
    touched = dependents(set(changed), requires)
    plan = site_plan(docs)
    pages, jobs = plan.pages, plan.jobs
    runs = {name: job for name, job in jobs.items()
            if (only is None or name in only) and affected(job.path.read_text(encoding="utf-8"), touched, modules)}
    # A program that loads a distribution whose own requirements this set breaks (flax 0.12.12 with
    # jax 0.10.2) does not run: no reader can install what it needs, whatever it would print.
    refused = {}
    for name, job in runs.items():
        why = [line for dist in sorted(closure(uses(job.path.read_text(encoding="utf-8"), modules), requires))
               for line in broken.get(dist, [])]
        if why:
            refused[name] = "; ".join(why)
    runs = {name: job for name, job in runs.items() if name not in refused}
    records_dir = out / "records"
    # A good record of the same bytes under the same versions and runner (the key says so) is kept
    # from an earlier canary in this folder: only snippets edited since, or that failed, run again.
    kept = {name for name, job in runs.items() if good_record(records_dir, name, job.key) is not None}
    print(f"canary: {len(changed)} distributions differ from the pins; {len(runs) + len(refused)} of {len(jobs)} "
          f"snippets affected, {len(refused)} of them not installable with these versions, {len(kept)} passed before "
          f"exactly as they are now, {len(runs) - len(kept)} to run", flush=True)
    for line in sorted({line for lines in broken.values() for line in lines}):
        print(f"canary: {line}", flush=True)
    def done(record):
        write_record(records_dir, record)
        print(f"[canary] {record['snippet']}: {'ok' if record['returncode'] == 0 else 'FAILED'}", flush=True)

    todo = [job for name, job in runs.items() if name not in kept]
    run(todo, timeout=conf.kb_snippet_timeout, done=done,
        cost={job.name: earlier_seconds(records_dir, job.name) or 1.0 for job in todo})
    snippets: dict[str, Entry] = {}
    for name, job in jobs.items():
        if name in runs:
            snippets[name] = entry(read_record(record_path(records_dir, name, job.key)), job.path.read_bytes())
        elif name in refused:
            snippets[name] = Entry(status="not installable", sha256=snippet_digest(job.path), error=refused[name][:600],
                                   drift=None)
        elif only is None or name in only:
            snippets[name] = Entry(status="not affected", sha256=snippet_digest(job.path))
    # What a floor's test reads to tell a set pip can install from one it cannot (tests/test_kb_floors.py):
    # each followed or changed distribution's version and its own requirements.
    followed = sorted(n for n in {*CANARY_PACKAGES, *changed} if n in versions)
    return {"versions": {n: versions[n] for n in sorted(versions) if n in base_versions or n in changed},
            "changed": changed, "touched": sorted(touched), "pages": pages, "snippets": snippets,
            "requires": {n: {"version": versions[n], "requires": written[n]} for n in followed},
            "conflicts": broken}


# --------------------------------------------------------------------------------------------
# The report
# --------------------------------------------------------------------------------------------


def markdown(report: dict) -> str:
    """The report as Markdown, failures first."""
    lines = [f"# Release canary, {report['date']}", "",
             f"Machine: {report['machine']}; Python {report['python']}.", "",
             f"Asked for: `{' '.join(report['asked']) or '(nothing)'}`", ""]
    install = report["install"]
    if not install["ok"]:
        lines += ["**pip could not install these versions:**", "", "```text", *install["errors"], "```", ""]
        return "\n".join(lines) + "\n"
    changed = report["changed"]
    lines += ["Changed from the pins: " + (", ".join(f"{n} {a} → {b}" for n, (a, b) in sorted(changed.items()))
                                          or "nothing (the pins are the newest releases)"), ""]
    if install["pip_check"]:
        lines += ["`pip check` says:", "", "```text", *install["pip_check"], "```", ""]
    statuses = ("pass", "fail", "not installable", "not affected")
    counts = {s: sum(1 for e in report["snippets"].values() if e["status"] == s) for s in statuses}
    lines += ["Snippets: " + ", ".join(f"{counts[s]} {s}" for s in statuses) + ".", ""]
    if report.get("conflicts"):
        lines += ["Not installable together (each distribution's own requirements; its programs did not run):", "",
                  *sorted({f"- {line}" for found in report["conflicts"].values() for line in found}), ""]
    failing = [(page, name) for page, names in report["pages"].items() for name in names
               if report["snippets"].get(name, {}).get("status") in ("fail", "not installable")]
    if failing:
        lines += ["| page | snippet | error | API drift |", "|---|---|---|---|"]
        for page, name in failing:
            e = report["snippets"][name]
            error = (e.get("error") or "").replace("|", "\\|")
            drift = (e.get("drift") or "").replace("|", "\\|")
            line = f":{e['line']}" if e.get("line") else ""
            lines.append(f"| {page} | `{name}{line}` | {error} | {drift} |")
        lines.append("")
    passing = [page for page, names in report["pages"].items()
               if any(report["snippets"].get(n, {}).get("status") == "pass" for n in names)
               and not any(report["snippets"].get(n, {}).get("status") in ("fail", "not installable") for n in names)]
    if passing:
        lines += [f"Pages whose affected snippets all pass ({len(passing)}): " + ", ".join(passing), ""]
    return "\n".join(lines) + "\n"


def canary(specs: list[tuple[str, str | None]], *, pre: bool = False, out: Path | None = None,
           docs: Path = DOCS, pip_extra: list[str] | None = None, only: set[str] | None = None,
           env_root: Path | None = None) -> dict:
    """Build the overlay, run the touched snippets, write the report; returns it."""
    from importlib.metadata import distributions

    specs = with_companions(specs or [(n, None) for n in CANARY_PACKAGES])
    name = slug(specs, pre)
    out = (out or BUILD / "canary" / name).resolve()
    out.mkdir(parents=True, exist_ok=True)
    overlay = (env_root or ROOT / ".nox" / "canary") / name
    report = {"format": FORMAT, "date": datetime.date.today().isoformat(), "machine": machine_description(),
              "python": platform.python_version(), "asked": pip_args(specs), "changed": {}, "snippets": {}, "pages": {}}
    report["install"] = make_overlay(overlay, specs, pre, pip_extra or [])
    if report["install"]["ok"]:
        base = {canonical(d.metadata["Name"]): d.version for d in distributions()}
        (out / "base.json").write_text(json.dumps(base), encoding="utf-8")
        args = ["--inside", "--docs", str(docs), "--out", str(out), "--base", str(out / "base.json")]
        if only is not None:
            (out / "only.json").write_text(json.dumps(sorted(only)), encoding="utf-8")
            args += ["--only", str(out / "only.json")]
        done = inside(overlay / "bin" / "python", *args)
        sys.stdout.write(done.stdout)
        if done.returncode != 0:
            report["install"] = {**report["install"], "ok": False,
                                 "errors": ["the canary could not start in the new environment:",
                                            *done.stderr.strip().splitlines()[-12:]]}
        else:
            report.update(json.loads((out / "inside.json").read_text(encoding="utf-8")))
    (out / "report.json").write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    (out / "report.md").write_text(markdown(report), encoding="utf-8")
    return report


def failed(report: dict) -> bool:
    return not report["install"]["ok"] or any(e["status"] in ("fail", "not installable")
                                              for e in report["snippets"].values())


def floor_summary(report: dict, package: str, version: str, first: bool) -> dict:
    """What a floor report keeps of a canary report: no seconds, and the snippets that ran (the
    first step of a walk keeps the unaffected ones too, with their hashes, so that kb.floors can
    tell a snippet that does not use the package from one added since the check)."""
    kept = {k: report.get(k, {}) for k in ("format", "date", "machine", "python", "asked", "install", "changed",
                                            "requires", "conflicts")}
    kept["package"], kept["version"] = package, version
    kept["snippets"] = {n: {k: v for k, v in e.items() if k != "seconds"}
                        for n, e in report["snippets"].items() if first or e["status"] != "not affected"}
    return kept


def floors(steps: list[tuple[str, str | None]], *, docs: Path = DOCS, into: Path = FLOORS,
           pip_extra: list[str] | None = None, env_root: Path | None = None, work: Path | None = None) -> list[Path]:
    """Walk each package's steps newest first; each runs what passed the step before.

    Each step's full report and records go to ``work/<package>-<version>/`` (default
    ``_build/canary/floors``); the committed summary to ``into/<package>-<version>.json``."""
    work = work or BUILD / "canary" / "floors"
    written = []
    by_package: dict[str, list[str]] = {}
    for name, version in steps:
        if version is None:
            raise SystemExit(f"--floors needs versions (name==version), not {name}")
        by_package.setdefault(name, []).append(version)
    into.mkdir(parents=True, exist_ok=True)
    for package, versions in by_package.items():
        only = None
        for version in versions:
            report = canary([(package, version)], docs=docs, pip_extra=pip_extra, env_root=env_root,
                            out=work / f"{package}-{version}", only=only)
            kept = floor_summary(report, package, version, first=only is None)
            path = into / f"{package}-{version}.json"
            path.write_text(json.dumps(kept, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
            written.append(path)
            passed = {n for n, e in kept["snippets"].items() if e["status"] == "pass"}
            print(f"floors: {package} {version}: {len(passed)} of {len(kept['snippets'])} snippets pass", flush=True)
            if not passed:
                break
            only = passed
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.canary", description=__doc__.split("\n\n")[0])
    parser.add_argument("specs", nargs="*", type=parse_spec, metavar="SPEC",
                        help="name==version, or a bare name for its newest release (default: the JAX stack)")
    parser.add_argument("--pre", action="store_true", help="admit pre-releases")
    parser.add_argument("--out", type=Path, help="where the report and records go (default _build/canary/<slug>)")
    parser.add_argument("--floors", action="store_true",
                        help=f"walk older releases into {FLOORS.relative_to(ROOT)} (default steps: {' '.join(FLOOR_STEPS)})")
    parser.add_argument("--docs", type=Path, default=DOCS, help="the pages (default: this site's docs/)")
    parser.add_argument("--pip", action="append", default=[], metavar="ARG",
                        help="an extra argument for pip install (e.g. --pip=--no-index --pip=--find-links=DIR)")
    parser.add_argument("--floors-dir", type=Path, default=FLOORS, help=argparse.SUPPRESS)
    parser.add_argument("--env-root", type=Path, metavar="DIR",
                        help="where the overlay environments go (default .nox/canary; a worktree whose .nox is "
                             "another checkout's should name its own, e.g. _build/canary-envs)")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--base", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--only", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.inside:
        only = set(json.loads(args.only.read_text())) if args.only else None
        result = run_inside(args.docs.resolve(), args.out, json.loads(args.base.read_text()), only)
        (args.out / "inside.json").write_text(json.dumps(result), encoding="utf-8")
        return 0
    if args.floors:
        steps = args.specs or [parse_spec(s) for s in FLOOR_STEPS]
        for path in floors(steps, docs=args.docs.resolve(), into=args.floors_dir.resolve(), pip_extra=args.pip,
                           env_root=args.env_root, work=args.out):
            print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
        return 0
    report = canary(args.specs, pre=args.pre, out=args.out, docs=args.docs.resolve(), pip_extra=args.pip,
                    env_root=args.env_root)
    out = (args.out or BUILD / "canary" / slug(with_companions(args.specs or [(n, None) for n in CANARY_PACKAGES]),
                                                 args.pre)).resolve()
    print(f"canary report: {out / 'report.md'}")
    if failed(report):
        print("canary: FAILED (see the report)", file=sys.stderr)
        return 1
    print("canary: every affected snippet passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
