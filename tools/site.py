"""Checks shared by the tests, `nox -s i18n` and the build benchmark (no network needed)."""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SNIPPETS = ROOT / "snippets"
LOCALES = DOCS / "locales"
HTML = Path(os.environ.get("KB_SITE_HTML", ROOT / "_build" / "html"))  # the built site
LANGUAGES = ("en", "zh_CN")

sys.path.insert(0, str(DOCS / "_ext"))


def sphinx_command(src: Path, out: Path, *, doctrees: Path, language: str = "en", cache: Path | None = None,
                   builder: str = "html", parallel: bool = False, python: str = sys.executable,
                   extra: tuple[str, ...] | list[str] = ()) -> list[str]:
    """The one way this project runs sphinx-build (nox sessions, fixture builds, the benchmark):
    the site's conf.py, warnings as errors, and a translated build that never executes a cell."""
    args = [python, "-m", "sphinx", "-b", builder, "-c", str(ROOT), "-W", "--keep-going", "-n", "-q"]
    if parallel:
        args += ["-j", "auto"]  # pages execute in parallel
    args += ["-d", str(doctrees), "-D", f"language={language}"]
    if cache is not None:
        args += ["-D", f"nb_execution_cache_path={cache}"]
    if language != "en":
        args += ["-D", "kb_execute=0"]  # reads every page from the cache the English build filled
    return [*args, *extra, str(src), str(out)]


# ---------------------------------------------------------------------------------------------
# Translations
# ---------------------------------------------------------------------------------------------

ROLE_RE = re.compile(r"\{([a-z][a-z0-9:+-]*)\}`([^`]*)`")  # MyST role names are lower case
CODE_RE = re.compile(r"(`+)(.+?)\1")
LINK_RE = re.compile(r"\]\(([^)\s]+)\)")


def _role_target(content: str) -> str:
    """The part of a role's content that must not be translated: `text <target>` -> target."""
    m = re.search(r"<([^<>]+)>\s*$", content)
    return m.group(1) if m else content


def markup_of(text: str) -> dict[str, list[str]]:
    """The inline markup a translation must keep: roles with their targets, code, link targets.

    >>> markup_of("Use {ref}`the guide <start-guide>` and `jax.jit` ([docs](https://x.org/a)).")
    {'roles': ['ref:start-guide'], 'code': ['jax.jit'], 'links': ['https://x.org/a']}
    """
    roles = [f"{name}:{_role_target(content)}" for name, content in ROLE_RE.findall(text)]
    rest = ROLE_RE.sub(" ", text)
    code = [m.group(2).strip() for m in CODE_RE.finditer(rest)]
    return {"roles": sorted(roles), "code": sorted(set(code)), "links": sorted(LINK_RE.findall(text))}


def markup_problems(msgid: str, msgstr: str) -> list[str]:
    """Why a translation would render differently from its source (empty list: none).

    >>> markup_problems("Call `jax.jit` first.", "先调用 `jax.jit`。")
    []
    >>> markup_problems("See {ref}`start-guide`.", "参见 {ref}`start-guide。")
    ['unbalanced backquotes: the markup is broken', 'role {ref}`start-guide` is missing or changed']
    >>> markup_problems("Call `jax.jit` first.", "先调用 `jax.grad`。")
    ['code `jax.jit` is missing or changed']
    """
    problems = []
    stripped = re.sub(r"(`+)(.+?)\1", "", ROLE_RE.sub("", msgstr))
    if "`" in stripped:
        problems.append("unbalanced backquotes: the markup is broken")
    source, target = markup_of(msgid), markup_of(msgstr)
    for role in source["roles"]:
        if source["roles"].count(role) != target["roles"].count(role):
            name, _, ref = role.partition(":")
            problems.append(f"role {{{name}}}`{ref}` is missing or changed")
    for code in source["code"]:
        if code not in target["code"]:
            problems.append(f"code `{code}` is missing or changed")
    for link in source["links"]:
        if link not in target["links"]:
            problems.append(f"link target ({link}) is missing or changed")
    return list(dict.fromkeys(problems))


@dataclass
class CatalogReport:
    path: Path
    total: int = 0
    translated: int = 0
    fuzzy: list = field(default_factory=list)
    untranslated: list = field(default_factory=list)
    obsolete: int = 0
    broken: list = field(default_factory=list)  # (entry, problems)


def catalog_report(path: Path) -> CatalogReport:
    import polib

    catalog = polib.pofile(str(path))
    report = CatalogReport(path)
    for entry in catalog:
        if entry.obsolete:
            report.obsolete += 1
            continue
        report.total += 1
        if "fuzzy" in entry.flags:
            report.fuzzy.append(entry)
        elif not entry.msgstr.strip():
            report.untranslated.append(entry)
        else:
            report.translated += 1
            problems = markup_problems(entry.msgid, entry.msgstr)
            if problems:
                report.broken.append((entry, problems))
    return report


def catalogs(language: str = "zh_CN", locales: Path = LOCALES) -> list[Path]:
    return sorted((locales / language / "LC_MESSAGES").rglob("*.po"))


def where(entry) -> str:
    """Where an entry's text stands in the English source, e.g. `docs/start/x.md:12`."""
    return ", ".join(f"{file}:{line}" for file, line in entry.occurrences) or "(no location)"


# ---------------------------------------------------------------------------------------------
# Built HTML
# ---------------------------------------------------------------------------------------------


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("id", "name") if tag in ("a",) else ("id",):
            if attrs.get(key):
                self.ids.add(attrs[key])
        for key in ("href", "src"):
            value = attrs.get(key)
            if value and tag in ("a", "link", "script", "img", "iframe", "source"):
                self.links.append(value)


def _parse(path: Path) -> _Collector:
    collector = _Collector()
    collector.feed(path.read_text(encoding="utf-8", errors="replace"))
    return collector


def broken_internal_links(site: Path) -> list[str]:
    """Every relative link or anchor in a built HTML site that leads nowhere."""
    problems = []
    cache: dict[Path, _Collector] = {}

    def parsed(path: Path) -> _Collector:
        if path not in cache:
            cache[path] = _parse(path)
        return cache[path]

    for page in sorted(site.rglob("*.html")):
        if "_static" in page.relative_to(site).parts:  # theme templates, not pages
            continue
        for link in parsed(page).links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("mailto:", "javascript:", "data:")):
                continue
            target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            rel = page.relative_to(site)
            if not target.exists():
                problems.append(f"{rel}: {link} -> missing file")
                continue
            fragment = unquote(parts.fragment)
            if fragment and target.suffix == ".html" and fragment not in parsed(target).ids:
                problems.append(f"{rel}: {link} -> no anchor #{fragment}")
    return problems


def normalize_catalogue(path: Path) -> None:
    """Tidy what sphinx-intl writes: no fuzzy header, no obsolete entries, source locations
    relative to the repository."""
    import polib

    catalog = polib.pofile(str(path), wrapwidth=0)
    catalog.metadata_is_fuzzy = False
    for entry in catalog.obsolete_entries():  # strings no page has any more
        catalog.remove(entry)
    for entry in catalog:
        entry.occurrences = [(re.sub(r"^(\.\./)+(?=docs/)", "", file), line) for file, line in entry.occurrences]
    catalog.save()
