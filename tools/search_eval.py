"""The search evaluation sets (``tests/data/search_queries*.tsv``), run against a built site in Chromium.

Each row is a query written the way a reader asks (a colloquial question, a pasted error line, a
PyTorch name), the language of the site it is typed into, and the page or pages (``a | b``) that
answer it. ``evaluate`` types each query into the built site's own search page, exactly as a
reader does (``search.html?q=...``), and keeps the result links. A query passes when an expected
page is among the first ``TOP`` results.

Three sets, so that a score says how the search does on questions it was not tuned on:

- ``tune``: the half of ``search_queries.tsv`` that changes to the ranking may be tuned on;
- ``report``: the other half, only reported. The rule is fixed and needs no column: a query
  belongs to ``report`` when the SHA-256 of its text (UTF-8) is odd as a number (``half``), so a
  query keeps its half when rows are added, removed or reordered;
- ``new``: ``search_queries_new.tsv``, queries written from readers' words (forum and issue
  titles, error lines, PyTorch habits) before any of their results was seen, and never tuned on
  (issue 52). A correction of one of its expected pages is a commit of its own, with the reason.

``tests/test_browser.py`` holds the site to the goal (``GOAL`` of each language's ``report`` and
``new`` queries pass, or the measured figure where a set is below it, ``BELOW_GOAL``; no query has
zero results) and each language's search index to at most
``INDEX_GROWTH`` times its size before that work (``INDEX_BEFORE``); ``nox -s bench-site`` writes
the table into BENCHMARKS.md, and this prints it::

    python -m tools.search_eval [--site _build/html] [--failures] [--set tune|report|new] [--write]
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import gzip
import hashlib
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from .site import HTML, LANGUAGES, ROOT

QUERIES = ROOT / "tests" / "data" / "search_queries.tsv"
NEW_QUERIES = ROOT / "tests" / "data" / "search_queries_new.tsv"
TOP = 3
GOAL = 0.95
KINDS = ("colloquial", "pytorch", "error")
SETS = ("tune", "report", "new")
# Each language's searchindex.js in bytes on the site built from 7c2c2ff (before issue 52's search
# work), and how much larger it may grow.
INDEX_BEFORE = {"en": 318952, "zh_CN": 515460}
INDEX_GROWTH = 1.2
# Where a set is below GOAL, the test holds it at the figure measured when this was committed,
# so that it cannot drop further. None is now: zh_CN's new queries, held at 63 of 67 from 26d9dd6,
# reach 64 (95 %) on the site built clean from 143979a.
BELOW_GOAL: dict[tuple[str, str], int] = {}


def least(language: str, which: str, total: int) -> int:
    """How many of a set's ``total`` queries the test requires in the top three.

    >>> least("en", "report", 44), least("zh_CN", "new", 67)
    (42, 64)
    """
    return BELOW_GOAL.get((language, which), math.ceil(GOAL * total))


def half(query: str) -> str:
    """The half of the project's set a query belongs to: ``report`` when the SHA-256 of its text
    is odd, else ``tune``.

    >>> half("如何计算梯度"), half("OOM")
    ('report', 'tune')
    """
    return "report" if int(hashlib.sha256(query.encode("utf-8")).hexdigest(), 16) % 2 else "tune"


@dataclass
class Query:
    language: str
    query: str
    expected: list[str]
    kind: str
    set: str = "tune"
    links: list[str] = field(default_factory=list)
    partial: bool = False  # the site said that no page matched every word

    @property
    def rank(self) -> int | None:
        """1-based position of the first expected page among the results, or None."""
        for position, link in enumerate(self.links, 1):
            if link.split("#")[0].removesuffix(".html") in self.expected:
                return position
        return None

    @property
    def passed(self) -> bool:
        return self.rank is not None and self.rank <= TOP


BARE_ERROR = re.compile(r"(?<![#.\w])([A-Z]\w*(?:Error|Exception))\s*(?=$|[;,)\]}])", re.M)


def bare_error_names(stdout: str) -> list[str]:
    """Exception names a program printed without their message. A reader pastes the first line of
    an error into search: a page that shows only ``TypeError`` cannot be found that way.

    >>> bare_error_names("jit: TypeError\\nok: KeyError: 'x'\\nfound [ValueError]\\nTypeError - bad input\\n"
    ...                  "See https://docs.jax.dev/errors.html#jax.errors.TracerBoolConversionError")
    ['TypeError', 'ValueError']
    """
    return BARE_ERROR.findall(stdout)


def load_all() -> list[Query]:
    """Both halves of the project's set, then the new queries."""
    return load(QUERIES) + load(NEW_QUERIES)


def load(path: Path = QUERIES) -> list[Query]:
    """One evaluation file; a row with an unknown language or kind, or no expected page, is an
    error. The rows of ``NEW_QUERIES`` are the set ``new``, the others are split by ``half``.

    >>> import tempfile
    >>> bad = Path(tempfile.mkdtemp()) / "q.tsv"
    >>> _ = bad.write_text("language\\tquery\\texpected\\tkind\\nfr\\tgradient\\t\\tguess\\n", encoding="utf-8")
    >>> load(bad)
    Traceback (most recent call last):
    ValueError: q.tsv:2: language 'fr' is not one of en, zh_CN; kind 'guess' is not one of colloquial, pytorch, error; no expected page
    """
    queries = []
    with path.open(encoding="utf-8", newline="") as handle:
        for line, row in enumerate(csv.DictReader(handle, delimiter="\t"), 2):
            expected = [page.strip() for page in (row["expected"] or "").split("|") if page.strip()]
            problems = []
            if row["language"] not in LANGUAGES:
                problems.append(f"language {row['language']!r} is not one of {', '.join(LANGUAGES)}")
            if row["kind"] not in KINDS:
                problems.append(f"kind {row['kind']!r} is not one of {', '.join(KINDS)}")
            if not expected:
                problems.append("no expected page")
            if problems:
                raise ValueError(f"{path.name}:{line}: {'; '.join(problems)}")
            which = "new" if path.name == NEW_QUERIES.name else half(row["query"])
            queries.append(Query(row["language"], row["query"], expected, row["kind"], which))
    return queries


def search(page, base: str, language: str, query: str) -> tuple[list[str], bool]:
    """The result links (relative to the language's root) of one query typed into the site's search
    page, in the order the page lists them, and whether the page said that it shows pages holding
    only some of the words. The page is loaded once per language; each query then runs through
    ``Search._parseQuery`` and ``Search._performSearch`` with the address set to it, which is what
    the page's own ``Search.query`` does before it lists the results (the listing, which fetches a
    summary from each result page, is left out: it does not change the order)."""
    if not page.url.startswith(f"{base}/{language}/search.html"):
        page.goto(f"{base}/{language}/search.html?q={quote(query)}")
        page.wait_for_function("() => document.querySelector('#search-results .search-summary').textContent.length > 0")
    return tuple(page.evaluate("""(query) => {
        history.replaceState(null, "", "?q=" + encodeURIComponent(query));
        const [q, terms, excluded, highlight, objects] = Search._parseQuery(query);
        const results = Search._performSearch(q, terms, excluded, highlight, objects);
        const links = results.reverse().map((r) => r[0] + DOCUMENTATION_OPTIONS.FILE_SUFFIX + r[2]);
        return [links, document.querySelector("#search-results .kb-search-partial") !== null];
    }""", query))


def evaluate(site: Path = HTML, queries: list[Query] | None = None, browser=None) -> list[Query]:
    from .browser import chromium, serve

    queries = load_all() if queries is None else queries
    with serve(site) as base, (chromium() if browser is None else contextlib.nullcontext(browser)) as chrome:
        context = chrome.new_context(locale="en-US")
        page = context.new_page()
        page.set_default_timeout(20000)
        for query in queries:
            query.links, query.partial = search(page, base, query.language, query.query)
        context.close()
    return queries


def scores(queries: list[Query]) -> dict[tuple[str, str], tuple[int, int, int]]:
    """Per language and set: queries in the top three, queries in all, queries with no result at all.

    >>> q = [Query("en", "a", ["x"], "colloquial", "new", ["x.html"]), Query("en", "b", ["x"], "colloquial", "new")]
    >>> scores(q)
    {('en', 'new'): (1, 2, 1)}
    """
    result = {}
    for language in sorted({q.language for q in queries}):
        for which in SETS:
            mine = [q for q in queries if q.language == language and q.set == which]
            if mine:
                result[language, which] = (sum(q.passed for q in mine), len(mine), sum(not q.links for q in mine))
    return result


def index_size(site: Path, language: str) -> tuple[int, int]:
    """The bytes of a language's ``searchindex.js``, raw and gzip-compressed."""
    data = (site / language / "searchindex.js").read_bytes()
    return len(data), len(gzip.compress(data, 9))


def table(queries: list[Query], site: Path | None = None) -> str:
    """The scores per language and set, and (with ``site``) each language's index size against
    ``INDEX_BEFORE``."""
    lines = ["| site | set | queries | expected page in the top 3 | first | no result | fell back to most words |",
             "|---|---|---|---|---|---|---|"]
    for (language, which), (passed, total, empty) in scores(queries).items():
        mine = [q for q in queries if q.language == language and q.set == which]
        first = sum(q.rank == 1 for q in mine)
        partial = sum(q.partial for q in mine)
        lines.append(f"| {language} | {which} | {total} | {passed} ({100 * passed / total:.0f} %) | {first} | {empty} "
                     f"| {partial} |")
    if site is not None:
        lines += ["", "| site | search index | gzip | before (7c2c2ff) | growth |", "|---|---|---|---|---|"]
        for language in sorted({q.language for q in queries}):
            raw, packed = index_size(site, language)
            before = INDEX_BEFORE[language]
            lines.append(f"| {language} | {raw / 1024:.1f} KiB | {packed / 1024:.1f} KiB | {before / 1024:.1f} KiB "
                         f"| {100 * (raw / before - 1):+.1f} % |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=HTML)
    parser.add_argument("--failures", action="store_true", help="list the queries that miss the top three")
    parser.add_argument("--set", choices=SETS, action="append", help="only these sets (default: all)")
    parser.add_argument("--write", action="store_true", help="write the table into BENCHMARKS.md's search_eval block")
    args = parser.parse_args()
    queries = [q for q in load_all() if args.set is None or q.set in args.set]
    evaluate(args.site, queries)
    print(table(queries, args.site))
    if args.write:
        from .benchmarks import header, write_block

        write_block("search_eval", f"{header('python -m tools.search_eval')}\n\n{table(queries, args.site)}")
    for q in queries:
        if args.failures and not q.passed:
            print(f"{q.language}\t{q.set}\t{q.query}\t{q.expected} -> rank {q.rank}: {q.links[:5]}{' (partial)' if q.partial else ''}")


if __name__ == "__main__":
    main()
