"""Measure what a reader downloads and waits for (nox -s bench-site, or python -m tools.bench_site):
a benchmark, not a test.

Prints Markdown tables and writes them into BENCHMARKS.md (``tools.benchmarks``): the page weight
and query times between the ``bench_site`` markers, the search evaluation's table between the
``search_eval`` markers; the rest of the file is left as it is. The tables:
- the weight of a typical page (HTML + the CSS and JS it loads), raw and gzip-compressed, and the
  part that is ours (kb.css, kb.js) against the stock theme's assets;
- the size of both search indexes, and of the figure on the control-flow page (SVG with text);
- the time the browser takes to answer Chinese and English queries on the search page (median of
  several runs, Playwright driving Debian's chromium on localhost);
- the search evaluation sets' scores (tools.search_eval: the page that answers each query in the
  top three, per language and set: the tune and report halves of the project's set, the new
  queries) and each language's search index size against its size before issue 52.
"""

from __future__ import annotations

import gzip
import os
import platform
import re
import statistics
from pathlib import Path
from urllib.parse import quote

from .benchmarks import header, write_block
from .browser import chromium, serve
from .site import DOCS, HTML, LANGUAGES, languages_where, page_figures

# kb-scorer.js's first line, where our part of the built language_data.js begins
SCORER_START = (DOCS / "_static" / "kb-scorer.js").read_text(encoding="utf-8").splitlines()[0]

PAGE = "start/from-pytorch.html"
FIGURE_PAGE = "core/control-flow.html"  # its figure: SVG with text (kb.figures)
OURS = ("kb.css", "kb.js")
QUERIES = [("zh_CN", "如何计算梯度"), ("zh_CN", "分片"), ("en", "donate buffers")]


def assets(page: Path) -> list[Path]:
    text = page.read_text(encoding="utf-8")
    found = []
    for ref in re.findall(r'(?:href|src)="([^"#?]+\.(?:css|js))(?:\?[^"]*)?"', text):
        path = (page.parent / ref).resolve()
        if path.exists() and path not in found:
            found.append(path)
    return found


def weigh(paths: list[Path]) -> tuple[int, int]:
    raw = sum(p.stat().st_size for p in paths)
    packed = sum(len(gzip.compress(p.read_bytes(), 9)) for p in paths)
    return raw, packed


def kib(n: int) -> str:
    return f"{n / 1024:.1f} KiB"


def query_times(site: Path) -> list[tuple[str, str, float, str]]:
    rows = []
    with serve(site) as base, chromium() as browser:
        page = browser.new_page()
        for language, query in QUERIES:
            # The query in the address, as a reader's search has it (our scorer reads it there).
            page.goto(f"{base}/{language}/search.html?q={quote(query)}")
            page.wait_for_function("typeof Search !== 'undefined' && Search.hasIndex()")
            times = []
            for _ in range(7):
                times.append(page.evaluate(
                    """(q) => { const t0 = performance.now();
                                const [query, terms, excluded, highlighted, objects] = Search._parseQuery(q);
                                // Sphinx shows results from the end of this list: the last is the top one.
                                const results = Search._performSearch(query, terms, excluded, highlighted, objects);
                                return [performance.now() - t0, results.length, results.length ? results[results.length - 1][0] : ""]; }""",
                    query))
            rows.append((language, query, statistics.median(t[0] for t in times), f"{times[0][1]} results, first: {times[0][2]}"))
    return rows


def row(*cells: str) -> str:
    """One row of a Markdown table.

    >>> row("en: search index", "1.0 KiB", "0.5 KiB")
    '| en: search index | 1.0 KiB | 0.5 KiB |'
    """
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    site = HTML
    print(f"Machine: {platform.system()} {platform.machine()}, {os.cpu_count()} cores; site: {site}")
    lines = ["| what | raw | gzip |", "|---|---|---|"]
    for language in LANGUAGES:
        page = site / language / PAGE
        files = assets(page)
        ours = [p for p in files if p.name in OURS]
        stock = [p for p in files if p.name not in OURS]
        lines.append(row(f"{language}/{PAGE}: HTML", kib(weigh([page])[0]), kib(weigh([page])[1])))
        lines.append(row(f"{language}: theme CSS + JS ({len(stock)} files)", kib(weigh(stock)[0]), kib(weigh(stock)[1])))
        lines.append(row(f"{language}: ours ({', '.join(p.name for p in ours)})", kib(weigh(ours)[0]), kib(weigh(ours)[1])))
        # Sphinx writes the scorer last into language_data.js, and after it the query splitter where
        # kb.search_zh adds one (with the traditional characters the build gives it): from there on
        # the file is ours.
        built = (site / language / "_static" / "language_data.js").read_text(encoding="utf-8")
        extra = built[built.index(SCORER_START):].encode("utf-8")
        if language in languages_where("search", "jieba", LANGUAGES):
            what = "ours inside language_data.js (scorer + query splitter)"
        else:
            what = "ours inside language_data.js (scorer)"
        lines.append(row(f"{language}: {what}", kib(len(extra)), kib(len(gzip.compress(extra, 9)))))
        index = site / language / "searchindex.js"
        lines.append(row(f"{language}: search index", kib(weigh([index])[0]), kib(weigh([index])[1])))
        figure_page = site / language / FIGURE_PAGE
        for figure in page_figures(figure_page):
            lines.append(row(f"{language}/{FIGURE_PAGE}: figure ({figure.suffix[1:]})", kib(weigh([figure])[0]),
                             kib(weigh([figure])[1])))
    lines += ["", "| query | median time in the browser | result |", "|---|---|---|"]
    for language, query, ms, note in query_times(site):
        lines.append(row(f"{language}: {query}", f"{ms:.1f} ms", note))
    weight = "\n".join(lines)
    print(weight)
    from .search_eval import evaluate, table

    scores = table(evaluate(site), site)
    print("\n" + scores)
    write_block("bench_site", f"{header('nox -s bench-site')}\n\n{weight}")
    write_block("search_eval", f"{header('nox -s bench-site, tools.search_eval')}\n\n{scores}")


if __name__ == "__main__":
    main()
