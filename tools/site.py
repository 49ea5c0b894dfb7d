"""The site's layout and the one way to build it (no network needed).

- Paths of the repository, and the language table read from ``conf.py`` (``LANGUAGES``: every
  language, source first; ``SOURCE_LANGUAGE``; ``TRANSLATIONS``: the others; ``languages_where``:
  those with a value of a field the checks branch on, such as ``script``).
- ``sphinx_command``: the sphinx-build command line for every build (nox sessions, fixture builds,
  the benchmark, the gettext extraction).
- ``source_pages`` (as Sphinx finds them), ``built_pages`` (the reader's pages of a build),
  ``page_figures`` (the images a built page shows) and ``reader_text`` (what a reader reads on a
  built page or its Markdown, outside code and outputs).
- ``broken_internal_links``: relative links and anchors in a built site that lead nowhere.
"""

from __future__ import annotations

import os
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import conf  # conf.py puts docs/_ext on sys.path: a tool imports kb after this (LAYOUT.md, "Imports")

ROOT = conf.ROOT
DOCS = conf.DOCS
SNIPPETS = ROOT / "snippets"
LOCALES = DOCS / "locales"
BUILD = ROOT / "_build"
HTML = Path(os.environ.get("KB_SITE_HTML", BUILD / "html"))  # the built site
LANGUAGES = tuple(conf.kb_languages)
SOURCE_LANGUAGE = LANGUAGES[0]
TRANSLATIONS = LANGUAGES[1:]


def languages_where(field: str, value: str, languages: tuple[str, ...] = TRANSLATIONS) -> tuple[str, ...]:
    """The ``languages`` (default: the translations) whose ``kb_languages`` entry has ``field`` = ``value``.

    >>> languages_where("script", "cjk"), languages_where("glossary", "english", LANGUAGES)
    (('zh_CN',), ('en',))
    """
    return tuple(code for code in languages if conf.kb_languages[code][field] == value)


# Sphinx's own output in a build folder that is not a page a reader opens.
NOT_PAGES = {"_static", "_sources", "_downloads", "_kb"}
GENERATED = {"genindex.html", "search.html"}


def sphinx_command(src: Path, out: Path, *, doctrees: Path, language: str = SOURCE_LANGUAGE,
                   cache: Path | None = None, builder: str = "html", parallel: bool = False,
                   outputs: bool = True, python: str = sys.executable, module: str = "sphinx",
                   extra: tuple[str, ...] | list[str] = ()) -> list[str]:
    """The one way this project runs sphinx-build: the site's conf.py, warnings as errors.

    Only the source language's HTML build runs snippets (those without a record); every other
    build (a translation, gettext) reads their records and fails where one is missing
    (kb.execution). ``cache`` is the records folder (``kb_records``). ``outputs=False`` builds
    without any cell outputs (linkcheck). ``module="sphinx_autobuild"`` serves.

    >>> cmd = sphinx_command(Path("docs"), Path("out"), doctrees=Path("d"), builder="linkcheck", outputs=False)
    >>> cmd[1:5], "kb_mode=off" in cmd, cmd[-2:]
    (['-m', 'sphinx', '-b', 'linkcheck'], True, ['docs', 'out'])
    """
    args = [python, "-m", module, "-b", builder, "-c", str(ROOT), "-W", "--keep-going", "-n", "-q"]
    if parallel:
        args += ["-j", "auto"]  # pages are read in parallel
    args += ["-d", str(doctrees), "-D", f"language={language}"]
    if cache is not None:
        args += ["-D", f"kb_records={cache}"]
    if not outputs:
        args += ["-D", "kb_mode=off"]
    return [*args, *extra, str(src), str(out)]


def source_pages(docs: Path = DOCS) -> list[str]:
    """The page names (``core/jit``) under ``docs``, as Sphinx finds them with the site's conf.py.

    >>> "core/jit" in source_pages(), "locales/zh_CN/LC_MESSAGES/core/jit" in source_pages()
    (True, False)
    """
    from kb.page import source_pages as discover

    return discover(docs, conf.exclude_patterns, conf.source_suffix)


def built_pages(site: Path, language: str, generated: bool = False) -> list[Path]:
    """The HTML pages a reader opens in one language's build (``generated``: with the general index
    and the search page), not Sphinx's support files."""
    root = site / language
    return [p for p in sorted(root.rglob("*.html"))
            if not NOT_PAGES & set(p.relative_to(root).parts) and (generated or p.name not in GENERATED)]


def page_figures(page: Path) -> list[Path]:
    """The images a built page shows from Sphinx's ``_images`` folder (cell outputs, figures)."""
    import html
    import re

    text = page.read_text(encoding="utf-8")
    return [(page.parent / html.unescape(src)).resolve()
            for src in re.findall(r'<img [^>]*src="([^"]*_images/[^"]+)"', text)]


def reader_text(page: str, markdown: bool = False, code: str = " ") -> str:
    """The text a reader reads on a built page (HTML, or its Markdown with ``markdown``), outside
    code: blocks of code and outputs, code spans, scripts and styles become ``code``, tags, anchors
    and link targets go, entities are decoded and whitespace is one space.

    >>> reader_text('<p>设备：<strong>CPU</strong> ×1<code>jax.jit</code></p><p>ok</p><pre>13 CPU cores</pre><script>x</script>')
    '设备：CPU ×1 ok'
    >>> reader_text('<a id="x"></a>\\n\\n**TPU**：[见 `f`](a.md#b)\\n\\n```text\\nok\\n```\\n', markdown=True)
    '**TPU**：[见 ]'
    """
    import html
    import re

    if markdown:
        text = re.sub(r"^(`{3,}|~{3,}).*?^\1[ \t]*$", code, page, flags=re.S | re.M)
        text = re.sub(r"(`+).+?\1", code, text)
        text = re.sub(r"\]\([^)]*\)", "]", text)
        text = re.sub(r"<a id=\"[^\"]*\"></a>", " ", text)
        return " ".join(text.split())
    text = re.sub(r"<(pre|code|script|style|template)\b.*?</\1>", code, page, flags=re.S | re.I)
    text = re.sub(r"</?(a|span|strong|em|b|i|abbr|sup|sub)\b[^>]*>", "", text, flags=re.I)  # inside a line
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())


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


def broken_internal_links(site: Path, served_root: Path | None = None) -> list[str]:
    """Every relative link or anchor in a built HTML site that leads nowhere. Absolute paths (the
    404 page's) are resolved against ``served_root``, the folder served at ``/``: by default the
    parent of ``site``, which is one language's build."""
    served_root = served_root or site.parent
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
            if not parts.path:
                target = page
            elif parts.path.startswith("/"):
                target = (served_root / unquote(parts.path).lstrip("/")).resolve()
            else:
                target = (page.parent / unquote(parts.path)).resolve()
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
