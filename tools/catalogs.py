"""Translation catalogues: what is translated, what is broken, and keeping them tidy.

- Page catalogues: ``docs/locales/<language>/LC_MESSAGES/<page>.po`` (made by ``nox -s i18n``).
- The interface catalogue of our extensions: ``docs/_ext/kb/locales/<language>/LC_MESSAGES/kb.po``
  (``kb.translations``); ``update_interface_catalogue`` adds the strings the code asks for.
- ``catalogs(language)`` lists both kinds; ``catalog_report`` says, for one, what is untranslated,
  fuzzy or has broken markup; ``markup_problems`` compares a translation's MyST markup with its
  source.
- Checks of a built translation: ``untranslated_figure_words`` (any translation);
  ``figure_word_problems``, TRANSLATING.md's Chinese figure conventions (full-width brackets, one
  Chinese label per quantity), for the translations whose ``glossary`` in ``kb_languages`` is
  ``chinese``; ``english_interface_words`` and ``heading_glosses``, which take Latin words for
  English, for the translations whose ``script`` is ``cjk`` (``tests/test_site.py`` picks them
  with ``tools.site.languages_where``); so does ``generated_english``: the English of a machine
  report or a run's status (“13 CPU cores”, “versions differ”) that kb must word in the page's
  language and never quote (``kb.machines``, ``kb.accelerator_status``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .site import LOCALES, ROOT, SOURCE_LANGUAGE, TRANSLATIONS, built_pages, page_figures  # first: importing conf makes docs/_ext/kb importable

from kb.translations import catalogue_path, interface_messages  # noqa: E402

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


def catalogs(language: str = TRANSLATIONS[0], locales: Path = LOCALES) -> list[Path]:
    """Every catalogue of one language: the pages' and, for the site's own locales, kb's."""
    found = sorted((locales / language / "LC_MESSAGES").rglob("*.po"))
    interface = catalogue_path(language)
    return found + [interface] if locales == LOCALES and interface.is_file() else found


def where(entry) -> str:
    """Where an entry's text stands in the English source, e.g. `docs/start/x.md:12`."""
    return ", ".join(f"{file}:{line}" for file, line in entry.occurrences) or "(no location)"


# What stands before a page's path in a source location written from elsewhere than the repository's root.
LOCATION_PREFIX = r"^(?:\.\./)+(?:.*?/)?(?=docs/)"


def normalize_catalogue(path: Path) -> None:
    """Tidy what sphinx-intl writes: no fuzzy header, no obsolete entries, source locations
    relative to the repository (also those extracted in another checkout, as
    ``../../../../work/main/docs/...``: the review of 2026-12 found 190 such lines).

    >>> import re
    >>> [re.sub(LOCATION_PREFIX, "", f) for f in ("../../docs/a.md", "../../../../work/main/docs/b.md", "docs/c.md")]
    ['docs/a.md', 'docs/b.md', 'docs/c.md']
    """
    import polib

    catalog = polib.pofile(str(path), wrapwidth=0)
    catalog.metadata_is_fuzzy = False
    for entry in catalog.obsolete_entries():  # strings no page has any more
        catalog.remove(entry)
    for entry in catalog:
        entry.occurrences = [(re.sub(LOCATION_PREFIX, "", file), line) for file, line in entry.occurrences]
    catalog.save()


def missing_interface_messages(language: str) -> list[str]:
    """The ``_("...")`` strings of the kb modules that the language's kb.po lacks."""
    import polib

    po = catalogue_path(language)
    known = {e.msgid for e in polib.pofile(str(po))} if po.is_file() else set()
    return [msgid for msgid in interface_messages() if msgid not in known]


def update_interface_catalogue(language: str) -> Path:
    """Bring kb.po of ``language`` in line with the code: new strings added untranslated,
    strings no module asks for any more removed, locations refreshed."""
    import polib

    po_path = catalogue_path(language)
    po_path.parent.mkdir(parents=True, exist_ok=True)
    catalog = polib.pofile(str(po_path), wrapwidth=0) if po_path.is_file() else polib.POFile(wrapwidth=0)
    if not catalog.metadata:
        catalog.metadata = {"Language": language, "MIME-Version": "1.0",
                            "Content-Type": "text/plain; charset=UTF-8", "Content-Transfer-Encoding": "8bit"}
    messages = interface_messages()
    old = {entry.msgid: entry for entry in catalog}
    entries = [polib.POEntry(msgid=msgid, msgstr=old[msgid].msgstr if msgid in old else "",
                             flags=old[msgid].flags if msgid in old else [], occurrences=where_)
               for msgid, where_ in messages.items()]
    catalog[:] = entries
    catalog.save(str(po_path))
    return po_path


def page_figure_words(site: Path, language: str):
    """For each built page of ``language`` with SVG figures: the page (relative to its language's
    folder) and, for each figure, the SVG and the words it shows."""
    from kb.figures import svg_strings

    for page in built_pages(site, language):
        figures = [path for path in page_figures(page) if path.suffix == ".svg"]
        if figures:
            yield page.relative_to(site / language), [(svg, svg_strings(svg.read_text(encoding="utf-8"))) for svg in figures]


def untranslated_figure_words(site: Path, language: str, locales: Path = LOCALES) -> list[str]:
    """Words a figure on a translated page still shows in English (kb.figures).

    A word passes if it is the translation of a figure string in the page's catalogue, or a
    string the catalogue keeps as it is (a proper noun or an API name such as ``jax.lax.scan``).
    """
    import polib

    problems = []
    for rel, figures in page_figure_words(site, language):
        po = locales / language / "LC_MESSAGES" / rel.with_suffix(".po")
        entries = polib.pofile(str(po)) if po.is_file() else []
        allowed = {e.msgstr for e in entries if e.msgstr} | {e.msgid for e in entries if e.msgstr == e.msgid}
        for svg, words in figures:
            for word in words:
                if re.search(r"[A-Za-z]", word) and word not in allowed:
                    problems.append(f"{language}/{rel}: figure {svg.name} shows {word!r} untranslated "
                                    f"(translate it in {po.name}: nox -s i18n extracts figure words)")
    return problems


# One label per quantity on every figure (TRANSLATING.md, "Figures and the interface"), found by
# its English, and the unit symbols a label may end with.
FIGURE_QUANTITIES = {
    r"^(time per step|step time)\b": "每步耗时",
    r"^(time per call|one call)\b": "单次调用耗时",
    r"^(compile time|lower \+ compile)\b": "编译耗时",
    r"^epoch$": "训练轮数",
    r"^later calls$": "后续调用",
}
FIGURE_UNITS = ("s", "ms", "µs", "MiB", "GiB")


def figure_word_problems(words: dict[str, set[str]]) -> list[str]:
    """Figure words (English → its translations over every figure of the site) that break the
    convention: a unit is its symbol in full-width brackets, one quantity has one label.

    >>> figure_word_problems({"total time (ms)": {"总耗时 (ms)"}, "time per call (microseconds)": {"每次调用耗时（微秒）"},
    ...                       "Python loop": {"Python 循环", "Python 的循环"}, "step time (ms)": {"每步耗时（ms）"}})
    ["'total time (ms)' → '总耗时 (ms)': a unit goes in full-width brackets, （ms）", "'time per call (microseconds)' → '每次调用耗时（微秒）': write the unit as one of s, ms, µs, MiB, GiB", "'time per call (microseconds)' → '每次调用耗时（微秒）': this quantity is 单次调用耗时 on every figure", "'Python loop' has 2 translations: ['Python 循环', 'Python 的循环']"]
    """
    problems = []
    for english, translations in words.items():
        if len(translations) > 1:
            problems.append(f"{english!r} has {len(translations)} translations: {sorted(translations)}")
        for chinese in sorted(translations):
            unit = re.search(r"\(([^()]*)\)\s*$", english)
            if unit and not re.search(r"[A-Za-z_]\w*\(", english):  # not a call such as f('q')
                if re.search(r"\s?\([^()]*\)\s*$", chinese):
                    problems.append(f"{english!r} → {chinese!r}: a unit goes in full-width brackets, （{unit.group(1)}）")
                elif unit.group(1) in FIGURE_UNITS + ("seconds", "milliseconds", "microseconds") and not any(
                        chinese.endswith(f"（{u}）") for u in FIGURE_UNITS):
                    problems.append(f"{english!r} → {chinese!r}: write the unit as one of {', '.join(FIGURE_UNITS)}")
            for pattern, label in FIGURE_QUANTITIES.items():
                if re.search(pattern, english, re.I) and label not in chinese:
                    problems.append(f"{english!r} → {chinese!r}: this quantity is {label} on every figure")
    return problems


def site_figure_words(site: Path, language: str, locales: Path = LOCALES) -> dict[str, set[str]]:
    """Each English word of the built site's figures, and its translations in the page catalogues."""
    import polib

    words: dict[str, set[str]] = {}
    for rel, figures in page_figure_words(site, SOURCE_LANGUAGE):
        po = locales / language / "LC_MESSAGES" / rel.with_suffix(".po")
        if not po.is_file():
            continue
        translated = {e.msgid: e.msgstr for e in polib.pofile(str(po)) if e.msgstr}
        for _svg, shown in figures:
            for word in shown:
                if word in translated:
                    words.setdefault(word, set()).add(translated[word])
    return words


# Words a translated page's interface may show in Latin letters: names, not sentences.
INTERFACE_NAMES = {"JAX", "PyTorch", "Python", "Ctrl", "PDF", "Flax", "optax"}  # and the sections named after them


def english_interface_words(page_html: str, names: set[str] = INTERFACE_NAMES) -> list[str]:
    """English a reader meets in the interface of a translated page: tooltips, placeholders and
    labels of the theme's controls (``title``, ``aria-label``, ``placeholder`` of anything but a
    link) and visible text outside the article, links, code and the language switch.
    Names, acronyms and code (``JAX``, ``RNN``, ``jax.jit``, ``NamedSharding``) are not English.

    >>> english_interface_words('<button title="Toggle primary sidebar">x</button>'
    ...     '<input placeholder="搜索"><a href="x" title="jax.jit">y</a>'
    ...     '<a data-kb-lang-switch title="Read this page in English">English</a>'
    ...     '<footer>作者：JAX 知识库作者 © Copyright</footer><article><p>Prose is checked elsewhere</p></article>')
    ['button title="Toggle primary sidebar"', 'text "作者：JAX 知识库作者 © Copyright"']
    """
    from html.parser import HTMLParser

    # Prose, page titles and links (head, article, h1, a) are checked by the catalogue tests; code
    # and scripts are not for translation. The language switch is a link too.
    rest = page_html
    for tag in ("head", "article", "h1", "script", "style", "template", "pre", "code", "a"):
        rest = re.sub(rf"<{tag}\b.*?</{tag}>", " ", rest, flags=re.S | re.I)
    found: list[str] = []

    def english(value: str) -> bool:
        for word in re.findall(r"(?<![.\w])[A-Za-z][A-Za-z0-9_.'-]*", value):  # not .pdf
            word = word.rstrip(".'-")
            name = (word in names or re.search(r"[._0-9]", word) or word.isupper()
                    or re.search(r"[a-z][A-Z]", word))  # a name, an acronym or code
            if len(word) >= 3 and not name:
                return True
        return False

    class Reader(HTMLParser):
        def handle_starttag(self, tag, attrs):
            for key, value in attrs:
                if key in ("title", "aria-label", "placeholder") and english(value or ""):
                    found.append(f'{tag} {key}="{value}"')

        def handle_data(self, data):
            text = " ".join(data.split())
            if text and english(text):
                found.append(f'text "{text}"')

    Reader(convert_charrefs=True).feed(rest)
    return list(dict.fromkeys(found))


def english_generated_strings(reports: Path = ROOT / "reports" / "machines") -> list[str]:
    """The English that kb's generated strings must never bring into a translated page: each status
    of a run (``kb.accelerator_status.STATUS``, its English), and each machine as the machine reports
    and this build name it: the report's whole string, its system and architecture (“Linux x86_64”),
    “CPU cores”, and each device kind that pages call by another name (“TPU v5 lite”, a TPU v5e).

    >>> words = english_generated_strings()
    >>> {"versions differ", "ok", "CPU cores", "TPU v5 lite"} <= set(words)
    True
    """
    import json
    import platform

    from kb.accelerator_status import STATUS
    from kb.run.platforms import PLATFORMS, machine_description, machine_parts

    words = [getattr(status, "_message", None) or str(status) for status in STATUS.values()]  # the msgid, not a translation
    machines = [machine_description()]
    for path in sorted(reports.rglob("*.json")):
        try:
            machines.append(json.loads(path.read_text(encoding="utf-8"))["machine"])
        except (OSError, ValueError, KeyError, TypeError):
            continue  # not a machine report (kb.accelerator_runs fails the build on one that is)
    for machine in machines:
        parts = machine_parts(machine)
        words += [machine, f"{parts.system} {parts.arch}".strip()]
    words += ["CPU cores", f"{platform.system()} {platform.machine()}"]
    words += [kind for row in PLATFORMS.values() for kind, _name in row.device_names]
    return list(dict.fromkeys(word for word in words if word))


def generated_english(text: str, strings: list[str]) -> list[str]:
    """Which of ``strings`` a translated page's text shows, each as whole words, case kept; an
    English message quoted “…” in the page's language is the message, not a status.

    >>> generated_english("1 个失败，3 个 versions differ；Linux x86_64，13 CPU cores；“jax.pure_callback failed”；hook",
    ...                   ["versions differ", "failed", "ok", "CPU cores", "Linux x86_64"])
    ['versions differ', 'CPU cores', 'Linux x86_64']
    """
    text = re.sub(r"“[^“”]*”", " ", text)
    return [word for word in strings if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text)]


GLOSS_RE = re.compile(r"（([^（）\u3400-\u9fff]*[A-Za-z][^（）\u3400-\u9fff]*)）")


def heading_glosses(page_html: str) -> list[str]:
    """Headings of a translated page that carry an English gloss, 中文（English）: a title is
    reused in the sidebar, the previous/next buttons, the browser tab and every cross-reference,
    so the gloss belongs in the prose (TRANSLATING.md).

    >>> heading_glosses('<article><h1>纯函数（pure function）<a class="headerlink">#</a></h1>'
    ...                 '<h2>怎样用 FSDP 分片？</h2><h2>用 <code>jax.jit</code>（JIT）编译</h2>'
    ...                 '<h3>设备网格（2×4，共 8 个）</h3></article>')
    ['纯函数（pure function）', '用 jax.jit（JIT）编译']
    """
    import html as html_lib

    article = re.search(r"<article\b.*?</article>", page_html, re.S)
    found = []
    for match in re.finditer(r"<(h[1-6])\b[^>]*>(.*?)</\1>", article.group(0) if article else "", re.S):
        inner = re.sub(r'<a class="headerlink".*?</a>', "", match.group(2), flags=re.S)
        text = " ".join(html_lib.unescape(re.sub(r"<[^>]+>", "", inner)).split())
        if GLOSS_RE.search(text):
            found.append(text)
    return found
