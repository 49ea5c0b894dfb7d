"""Run the site's snippets outside Sphinx: one shard of them, for a build split over machines.

    python -m tools.shards --shard K/N --out DIR     (nox -s docs -- --shard K/N [--out DIR])
    python -m tools.shards --import DIR [DIR ...]    (nox -s docs -- --records DIR [DIR ...])

``--shard``: the snippets of every page (the build's plan, ``site_plan``), split into N shards
balanced by the seconds of earlier records in ``_build/records`` (``kb.run.runner.shard``); shard
K's snippets are run as the build runs them (``kb.run.schedule.run``) and their records written to DIR (a good record already in
DIR or in ``_build/records`` is copied, not run again). Exit status 1 if any of them failed, each
failure named with page, snippet and line.

``--docs`` and ``--store`` name another site's pages and records folder (the tests' fixture).

``--import``: the records of the gathered shard folders are checked (the same lock, runner, Python
and backend as this environment; a whole record each) and copied into ``_build/records``; the
render that follows (``kb_mode=render``) then runs nothing.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import conf

from .site import BUILD, DOCS

from kb.page import site_plan as build_plan  # noqa: E402
from kb.run.plan import Plan  # noqa: E402
from kb.run.process import RUNNER  # noqa: E402
from kb.run.runner import earlier_seconds, shard  # noqa: E402
from kb.run.schedule import run  # noqa: E402
from kb.run.store import environment, failure_message, good_record, import_records, problem, record_path, write_record  # noqa: E402


def site_plan(docs: Path = DOCS) -> Plan:
    """The plan of the site whose pages are ``docs``: the build's own (``kb.page.site_plan``)."""
    return build_plan(docs, conf)


def parse_shard(text: str) -> tuple[int, int]:
    """``"2/4"`` -> ``(2, 4)``, with a clear error for anything else.

    >>> parse_shard("2/4")
    (2, 4)
    >>> parse_shard("5/4")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: --shard 5/4: expected K/N with 1 <= K <= N, e.g. --shard 1/2
    """
    try:
        k, n = (int(part) for part in text.split("/"))
    except ValueError:
        k, n = 0, 0
    if not 1 <= k <= n:
        raise argparse.ArgumentTypeError(f"--shard {text}: expected K/N with 1 <= K <= N, e.g. --shard 1/2")
    return k, n


def run_shard(k: int, n: int, out: Path, docs: Path = DOCS, store: Path = Path(conf.kb_records)) -> int:
    plan = site_plan(docs)
    mine = shard(sorted(plan.jobs.values()), k, n, lambda item: earlier_seconds(store, item.name))
    todo = []
    for item in mine:
        for folder in (out, store):
            if good_record(folder, item.name, item.key) is not None:
                target = record_path(out, item.name, item.key)
                if folder != out:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(record_path(folder, item.name, item.key), target)
                break
        else:
            todo.append(item)
    print(f"shard {k}/{n}: {len(mine)} of {len(plan.jobs)} snippets, {len(todo)} to run, records in {out}", flush=True)

    def done(record):
        write_record(out, record)
        print(f"[kb] ran {record['snippet']} in {record['seconds']:.1f} s ({record['how']})", flush=True)

    records = run(todo, timeout=conf.kb_snippet_timeout, done=done,
                  cost={item.name: earlier_seconds(store, item.name) or 1.0 for item in todo}).values()
    failed = 0
    for record in records:
        reason = problem(record)
        if reason is None:
            continue
        failed += 1
        for page in plan.pages_of(record["snippet"]):
            print(f"ERROR: {failure_message(page, record)}", file=sys.stderr)
    seconds = sum(r["seconds"] for r in records)
    print(f"shard {k}/{n}: ran {len(records)} snippets ({seconds:.1f} s of snippet time), {failed} failed", flush=True)
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.shards", description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--shard", type=parse_shard, metavar="K/N", help="run shard K of N")
    group.add_argument("--import", dest="imports", nargs="+", type=Path, metavar="DIR",
                       help="check and copy gathered records into _build/records")
    parser.add_argument("--out", type=Path, help="where a shard writes its records (default _build/records-K-of-N)")
    parser.add_argument("--docs", type=Path, default=DOCS, help="the pages (default: this site's docs/)")
    parser.add_argument("--store", type=Path, default=Path(conf.kb_records),
                        help="the build's records folder (default _build/records)")
    args = parser.parse_args(argv)
    if args.shard:
        k, n = args.shard
        return run_shard(k, n, (args.out or BUILD / f"records-{k}-of-{n}").resolve(), args.docs.resolve(),
                         args.store.resolve())
    try:
        count = import_records(args.imports, args.store, environment(), RUNNER)
    except ValueError as error:
        print(f"ERROR: {error}", file=sys.stderr)
        return 1
    print(f"imported {count} records into {args.store}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
