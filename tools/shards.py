"""Run the site's snippets outside Sphinx: one shard of them, for a build split over machines.

    python -m tools.shards --shard K/N --out DIR     (nox -s docs -- --shard K/N [--out DIR])
    python -m tools.shards --import DIR [DIR ...]    (nox -s docs -- --records DIR [DIR ...])

``--shard``: the snippets of every page, split into N shards balanced by the seconds of earlier
records in ``_build/records`` (``kb.run.runner.shard``); shard K's snippets are run as the build
runs them (``kb.run.runner.run_all``) and their records written to DIR (a good record already in
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

from kb.execution import site_jobs as build_site_jobs  # noqa: E402
from kb.run.process import RUNNER  # noqa: E402
from kb.run.runner import earlier_seconds, run_all, shard  # noqa: E402
from kb.run.store import environment, failure_message, good_record, import_records, problem, record_path  # noqa: E402



def site_jobs(docs: Path) -> tuple[dict[str, list[str]], dict]:
    """Every page's snippet names, and each snippet's job, for the site whose pages are ``docs``
    (the build's own answer, ``kb.execution.site_jobs``)."""
    return build_site_jobs(docs, docs / conf.kb_snippets_dir, conf.exclude_patterns, conf.source_suffix)


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
    pages, jobs = site_jobs(docs)
    mine = shard(sorted(jobs.values()), k, n, lambda item: earlier_seconds(store, item.name))
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
    print(f"shard {k}/{n}: {len(mine)} of {len(jobs)} snippets, {len(todo)} to run, records in {out}", flush=True)
    records = run_all(todo, out, timeout=conf.kb_snippet_timeout,
                      done=lambda r: print(f"[kb] ran {r['snippet']} in {r['seconds']:.1f} s", flush=True))
    failed = 0
    for record in records:
        reason = problem(record)
        if reason is None:
            continue
        failed += 1
        for page in (p for p, names in pages.items() if record["snippet"] in names):
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
