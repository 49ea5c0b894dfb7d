"""python -m tools.links_report FOLDER LANGUAGE ...: the summary that `nox -s links` prints.

Sphinx's linkcheck builder writes, for each language's build, ``FOLDER/<language>/output.json``
(one JSON object a line: ``filename``, ``lineno``, ``status``, ``code``, ``uri``, ``info``) and
``output.txt`` (the failures). This reads the JSON of every language and prints, per language, how
many links were checked and how many failed, each failure with its page and line, and the links
that a translation has and the source language has not (which is why every language is checked);
it writes the same as ``FOLDER/summary.md``, the body of the issue the links workflow opens.
Exit status 1 where a link failed or a language has no report.

A failure is a status of ``broken`` (an HTTP error, a missing anchor, a refused connection, a
timeout: conf.py reports timeouts as broken), ``timeout``, or ``redirected``: conf.py sets
``linkcheck_allowed_redirects``, so Sphinx reports only the redirects that it does not allow
(those it allows are ``working``), and warns about each.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

FAILED = ("broken", "timeout", "redirected")


def read(report: Path) -> list[dict]:
    """The entries of one language's output.json, in the order Sphinx checked them."""
    return [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines() if line.strip()]


def failures(entries: list[dict]) -> list[dict]:
    """The entries that fail the run, by page and line.

    >>> failures([{"status": "working", "uri": "a"}, {"status": "redirected", "uri": "b", "filename": "p.md",
    ...           "lineno": 3}, {"status": "ignored", "uri": "c", "info": "service unavailable"}])
    [{'status': 'redirected', 'uri': 'b', 'filename': 'p.md', 'lineno': 3}]
    """
    return sorted((e for e in entries if e["status"] in FAILED), key=lambda e: (e["filename"], e["lineno"], e["uri"]))


def describe(entry: dict) -> str:
    """One failure as a line: page:line, status, address, and what was wrong.

    >>> describe({"filename": "core/jit.md", "lineno": 12, "status": "broken", "uri": "https://x.org/a#b",
    ...           "info": "Anchor 'b' not found"})
    "core/jit.md:12: broken https://x.org/a#b (Anchor 'b' not found)"
    >>> describe({"filename": "a.md", "lineno": 1, "status": "redirected", "uri": "http://x.org/", "info": "https://x.org/y"})
    'a.md:1: redirected http://x.org/ (to https://x.org/y)'
    """
    info = f"to {entry['info']}" if entry["status"] == "redirected" else entry["info"]
    return f"{entry['filename']}:{entry['lineno']}: {entry['status']} {entry['uri']}" + (f" ({info})" if info else "")


def summary(folder: Path, languages: list[str]) -> tuple[str, bool]:
    """(the Markdown summary of every language's report, whether every link passed). The first
    language is the source; a translation's link that the source's pages lack comes from its
    catalogue (Sphinx gives the line of such a link as 1), so its failure names the catalogue."""
    lines, passed, source = ["# External links", ""], True, None
    for language in languages:
        report = folder / language / "output.json"
        if not report.exists():
            lines += [f"## {language}", "", f"No report: `{report}` is missing (the build stopped before the check).", ""]
            passed = False
            continue
        entries = read(report)
        uris = {e["uri"] for e in entries}
        if language == languages[0]:
            source = uris
        own = sorted(uris - source) if source is not None and language != languages[0] else []
        counts = Counter(e["status"] for e in entries)
        failed = failures(entries)
        passed &= not failed
        # "unchecked": what Sphinx does not fetch (#anchors within the site, mailto:); tests/test_site.py
        # checks the site's own links and anchors.
        local = counts.pop("unchecked", 0)
        checked = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
        lines += [f"## {language}", "", f"{sum(counts.values())} external links: {checked or 'none'}; "
                  f"{len(failed)} failed ({local} links within the site not fetched).", ""]
        for entry in failed:
            catalogue = f"docs/locales/{language}/LC_MESSAGES/{entry['filename'].removesuffix('.md')}.po"
            lines.append(f"- {describe(entry)}" + (f"; only in the translation: {catalogue}" if entry["uri"] in own else ""))
        ignored = sorted({(e["uri"], e["info"]) for e in entries if e["status"] == "ignored" and e["info"]})
        lines += [f"- not judged: {uri} ({info})" for uri, info in ignored]
        if language != languages[0] and source is not None:
            lines += [f"- {len(own)} of these links are not on the {languages[0]} pages" + (f": {', '.join(own)}" if own else "")]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n", passed


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__.split("\n")[0], file=sys.stderr)
        return 2
    folder, languages = Path(argv[0]), argv[1:]
    text, passed = summary(folder, languages)
    (folder / "summary.md").write_text(text, encoding="utf-8")
    print(text, end="")
    print(f"Reports: {folder}/<language>/output.json and output.txt; this summary: {folder / 'summary.md'}")
    return 0 if passed else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
