"""Run every snippet on the machine this is on, and write one dated report of how each one ran.

    python3 tools/machine_report.py [--workers N] [--timeout S] [--only GLOB] [--out DIR]

For an accelerator machine (a lent GPU box, a TPU VM): it needs only ``python3`` with the
packages the snippets import (jax with its plugin, flax, optax, torch, ...), not nox, Sphinx or
a network, and it uses the machine's own installed versions, whatever they are. Each snippet
runs as the site's build runs it (``kb.runner``: a fresh process, an empty working directory,
none of the ``JAX_*``/``XLA_*`` variables, deprecations as errors, no GPU memory preallocation
so that ``--workers`` programs can share one GPU), the timing snippets alone after the others.

The report goes to ``DIR/<date>-<machine>-<backend>.json`` and a readable ``.md`` beside it
(default ``reports/machines/``): the machine, its devices, the versions it found and how they
differ from ``requirements.txt``; per snippet the outcome, the first error line, the backend it
started, the versions it imported, its seconds, what it printed and the sha256 of the program
(``kb.accelerator_runs`` shows a timing snippet's output beside the page's own, while the
program is unchanged). A failure on a machine whose versions differ
from the pins says so ("versions differ"), and one that imports a package the machine lacks is
"not installed here": neither is a reason to change the pins. Exit status 0 whatever failed: the
report is the result. Commit the report; nothing here changes the site's records.
"""

from __future__ import annotations

import argparse
import datetime
import fnmatch
import hashlib
import json
import os
import platform
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from kb.records import pinned_versions, problem  # noqa: E402 (standard library only, like kb.runner)
from kb.runner import job, run_all  # noqa: E402

TRACKED = ("jax", "jaxlib", "flax", "optax", "orbax-checkpoint", "torch", "numpy", "scipy")


def installed(names=TRACKED) -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for name in names:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            pass
    return found


def outcome(record: dict, differs: dict[str, tuple[str, str]]) -> str:
    """One word for how a snippet ran here.

    >>> ok = {"returncode": 0, "timed_out": False, "stdout": "1", "stderr": "", "figures": []}
    >>> bad = ok | {"returncode": 1, "stderr": "ModuleNotFoundError: No module named 'grain'"}
    >>> outcome(ok, {}), outcome(bad, {}), outcome(bad | {"stderr": "ValueError: x"}, {"jax": ("0.11.2", "0.12.0.1")})
    ('ok', 'not installed here', 'failed (versions differ)')
    """
    reason = problem(record)
    if reason is None:
        return "ok"
    if "ModuleNotFoundError" in record.get("stderr", ""):
        return "not installed here"
    if record.get("timed_out"):
        return "timed out"
    return "failed (versions differ)" if differs else "failed"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=min(8, os.cpu_count() or 1),
                        help="programs at once (default: the CPU cores, at most 8)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per snippet (default 600)")
    parser.add_argument("--only", default="*", help="a glob of snippet names, e.g. 'performance/*'")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "machines")
    args = parser.parse_args(argv)

    snippets = sorted(p for p in (ROOT / "snippets").rglob("*.py")
                      if fnmatch.fnmatch(p.relative_to(ROOT / "snippets").as_posix(), args.only))
    if not snippets:
        parser.error(f"no snippet matches {args.only!r}")
    here, pinned = installed(), pinned_versions(ROOT / "requirements.txt")
    differs = {name: (v, pinned[name]) for name, v in here.items() if name in pinned and pinned[name] != v}
    started = datetime.datetime.now(datetime.timezone.utc)
    print(f"running {len(snippets)} snippets, {args.workers} at a time", file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory() as folder:
        records = run_all([job(p, ROOT) for p in snippets], Path(folder), timeout=args.timeout,
                          workers=args.workers,
                          done=lambda r: print(f"{r['snippet']}: {outcome(r, differs)}", file=sys.stderr, flush=True))
    rows = []
    for record in sorted(records, key=lambda r: r["snippet"]):
        ran = record.get("ran_with") or {}
        devices = ran.get("devices") or []
        source = (ROOT / record["snippet"]).read_bytes()
        rows.append({"snippet": record["snippet"], "sha256": hashlib.sha256(source).hexdigest(),
                     "outcome": outcome(record, differs),
                     "error": problem(record), "error_line": record.get("error_line"),
                     "backend": devices[0]["backend"] if devices else None,
                     "device": devices[0]["kind"] if devices else None,
                     "packages": ran.get("packages", {}), "seconds": record["seconds"],
                     "alone": record["alone"], "stdout": record["stdout"]})
    backends = sorted({r["backend"] for r in rows if r["backend"]})
    kinds = sorted({r["device"] for r in rows if r["device"]})
    machine = f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPU cores" + (f", {', '.join(kinds)}" if kinds else "")
    report = {"date": started.isoformat(timespec="seconds"), "machine": machine, "backends": backends,
              "python": platform.python_version(), "installed": here, "pinned": {n: pinned[n] for n in here if n in pinned},
              "differs_from_pins": {n: {"here": a, "pinned": b} for n, (a, b) in differs.items()},
              "workers": args.workers, "counts": {}, "snippets": rows}
    for row in rows:
        report["counts"][row["outcome"]] = report["counts"].get(row["outcome"], 0) + 1
    slug = re.sub(r"[^a-z0-9]+", "-", f"{started.date()}-{platform.machine()}-{'-'.join(kinds or ['cpu'])}".lower()).strip("-")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"{slug}.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    (args.out / f"{slug}.md").write_text(markdown(report), encoding="utf-8")
    print(f"{report['counts']}; report: {args.out / slug}.json and .md", file=sys.stderr)
    return 0


def markdown(report: dict) -> str:
    lines = [f"# Snippets on {report['machine']}", "",
             f"Run {report['date']} with Python {report['python']}, {report['workers']} programs at a time, "
             f"backends started: {', '.join(report['backends']) or 'none'}.", "",
             "Versions here: " + ", ".join(f"{n} {v}" for n, v in report["installed"].items()) + ".", ""]
    if report["differs_from_pins"]:
        lines += ["Differs from `requirements.txt`: " + ", ".join(
            f"{n} {d['here']} (pinned {d['pinned']})" for n, d in report["differs_from_pins"].items()) + ".", ""]
    lines += ["Outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(report["counts"].items())) + ".", "",
              "| snippet | outcome | backend | seconds | first error |", "|---|---|---|---:|---|"]
    for row in report["snippets"]:
        error = (row["error"] or "").replace("|", "\\|")[:160]
        lines.append(f"| `{row['snippet']}` | {row['outcome']} | {row['backend'] or '-'} | {row['seconds']:.1f} | {error} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
