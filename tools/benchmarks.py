"""BENCHMARKS.md's generated blocks: ``nox -s bench`` and ``nox -s bench-site`` write their result
tables there, each between a pair of marker comments, and leave every other line of the file alone.

A block named ``bench_build`` is what lies between ``<!-- bench_build:start -->`` and
``<!-- bench_build:end -->``, each on a line of its own. ``tests/test_benchmarks_md.py`` fails if
the committed file lacks a block the benchmarks write.
"""

from __future__ import annotations

import datetime
import os
import platform
import re
import subprocess
from pathlib import Path

from .site import ROOT

BENCHMARKS = ROOT / "BENCHMARKS.md"
BLOCKS = ("bench_build", "bench_site", "search_eval")  # the blocks tools/bench_build.py and bench_site.py write


def markers(name: str) -> tuple[str, str]:
    return f"<!-- {name}:start -->", f"<!-- {name}:end -->"


def replace_block(text: str, name: str, body: str) -> str:
    """Return ``text`` with what lies between block ``name``'s markers replaced by ``body``.

    >>> text = "# B\\n\\n<!-- t:start -->\\nold\\n<!-- t:end -->\\n\\nkept\\n"
    >>> print(replace_block(text, "t", "| a |\\n|---|"))
    # B
    <BLANKLINE>
    <!-- t:start -->
    | a |
    |---|
    <!-- t:end -->
    <BLANKLINE>
    kept
    <BLANKLINE>

    Each marker must stand once on a line of its own, the start before the end:

    >>> replace_block("no markers here\\n", "t", "new")
    Traceback (most recent call last):
    ...
    ValueError: BENCHMARKS.md has no line '<!-- t:start -->' (expected once, before '<!-- t:end -->')
    >>> replace_block("<!-- t:end -->\\n<!-- t:start -->\\n", "t", "new")
    Traceback (most recent call last):
    ...
    ValueError: BENCHMARKS.md has '<!-- t:end -->' before '<!-- t:start -->'
    """
    start, end = markers(name)
    lines = text.split("\n")
    found = {}
    for marker in (start, end):
        where = [i for i, line in enumerate(lines) if line.strip() == marker]
        if len(where) != 1:
            other = end if marker == start else start
            order = "before" if marker == start else "after"
            raise ValueError(f"BENCHMARKS.md has {'no' if not where else len(where)} line{'s' if len(where) > 1 else ''} "
                             f"'{marker}' (expected once, {order} '{other}')")
        found[marker] = where[0]
    if found[start] > found[end]:
        raise ValueError(f"BENCHMARKS.md has '{end}' before '{start}'")
    return "\n".join(lines[: found[start] + 1] + body.strip("\n").split("\n") + lines[found[end]:])


def block(text: str, name: str) -> str:
    """What lies between block ``name``'s markers.

    >>> block("a\\n<!-- t:start -->\\nx\\ny\\n<!-- t:end -->\\nb", "t")
    'x\\ny'
    """
    start, end = markers(name)
    match = re.search(rf"^{re.escape(start)}\n(.*?)\n?^{re.escape(end)}$", text, re.M | re.S)
    if match is None:
        raise ValueError(f"BENCHMARKS.md has no block {name!r}")
    return match.group(1)


def header(what: str) -> str:
    """The line a generated block opens with: the date, the commit, the machine."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown commit"
    return (f"{what}: measured on {datetime.date.today().isoformat()} at commit {commit} "
            f"({platform.system()} {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}):")


def write_block(name: str, body: str, path: Path = BENCHMARKS) -> None:
    """Replace block ``name`` of ``path`` (BENCHMARKS.md) with ``body``, keeping the rest of the file."""
    path.write_text(replace_block(path.read_text(encoding="utf-8"), name, body), encoding="utf-8")
    print(f"wrote the {name} block of {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
