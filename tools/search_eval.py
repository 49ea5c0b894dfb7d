"""The search evaluation set (``tests/data/search_queries.tsv``), run against a built site in Chromium.

Each row is a query written the way a reader asks (a colloquial question, a pasted error line, a
PyTorch name), the language of the site it is typed into, and the page or pages (``a | b``) that
answer it. ``evaluate`` types each query into the built site's own search page, exactly as a
reader does (``search.html?q=...``), and keeps the result links. A query passes when an expected
page is among the first ``TOP`` results. ``tests/test_browser.py`` holds the site to the goal
(``GOAL`` of each language's queries pass, and none has zero results); ``nox -s bench-site``
writes the table into BENCHMARKS.md, and this prints it::

    python -m tools.search_eval [--site _build/html] [--failures]
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from .site import HTML, LANGUAGES, ROOT

QUERIES = ROOT / "tests" / "data" / "search_queries.tsv"
TOP = 3
GOAL = 0.95
KINDS = ("colloquial", "pytorch", "error")


@dataclass
class Query:
    language: str
    query: str
    expected: list[str]
    kind: str
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


def load(path: Path = QUERIES) -> list[Query]:
    """The evaluation set; a row with an unknown language or kind, or no expected page, is an error.

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
            queries.append(Query(row["language"], row["query"], expected, row["kind"]))
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

    queries = load() if queries is None else queries
    with serve(site) as base, (chromium() if browser is None else contextlib.nullcontext(browser)) as chrome:
        context = chrome.new_context(locale="en-US")
        page = context.new_page()
        page.set_default_timeout(20000)
        for query in queries:
            query.links, query.partial = search(page, base, query.language, query.query)
        context.close()
    return queries


def scores(queries: list[Query]) -> dict[str, tuple[int, int, int]]:
    """Per language: queries in the top three, queries in all, queries with no result at all."""
    result = {}
    for language in sorted({q.language for q in queries}):
        mine = [q for q in queries if q.language == language]
        result[language] = (sum(q.passed for q in mine), len(mine), sum(not q.links for q in mine))
    return result


def table(queries: list[Query]) -> str:
    lines = ["| site | queries | expected page in the top 3 | first | no result | fell back to most words |",
             "|---|---|---|---|---|---|"]
    for language, (passed, total, empty) in scores(queries).items():
        mine = [q for q in queries if q.language == language]
        first = sum(q.rank == 1 for q in mine)
        partial = sum(q.partial for q in mine)
        lines.append(f"| {language} | {total} | {passed} ({100 * passed / total:.0f} %) | {first} | {empty} | {partial} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=HTML)
    parser.add_argument("--failures", action="store_true", help="list the queries that miss the top three")
    args = parser.parse_args()
    queries = evaluate(args.site)
    print(table(queries))
    for q in queries:
        if args.failures and not q.passed:
            print(f"{q.language}\t{q.query}\t{q.expected} -> rank {q.rank}: {q.links[:5]}{' (partial)' if q.partial else ''}")


if __name__ == "__main__":
    main()
