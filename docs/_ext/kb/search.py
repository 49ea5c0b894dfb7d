"""kb.search: search that finds the page a reader means, in both languages.

1. **Words a reader types for a term.** The glossary's ``search`` column (``kb.glossary.glossary_path``)
   lists, for a term, the other words readers type for it: colloquial Chinese (显存, 多卡, 爆显存),
   abbreviations and PyTorch's names (OOM). After Sphinx has written ``searchindex.js``, each such
   word becomes a word of the index that leads to the pages of its term, in that build's language
   (the Chinese term on the Chinese site, the English one on the English site; a term of several
   words leads to the pages that hold all of them, split and stemmed as Sphinx splits and stems).
   A page whose titles hold the term gets the word as a title word too. So the query side needs
   nothing else: the query splitter knows every word of the index, and a query word that is such a
   word finds its term's pages. The glossary is the one place these words are written (the Chinese
   build's jieba dictionary takes them from there too, ``kb.search_zh``).
2. **No empty result for a real question.** Sphinx shows only pages that hold every word of the
   query. When that leaves fewer than three pages, ``kb-scorer.js`` adds the pages that hold most
   of the words, ranked by how many they hold, and says so above the results, in the page's
   language: the message is ``_()`` text of this module, given to the search page as
   ``KB_SEARCH_WORDS`` with the search words' terms (a page whose title names the term of a
   search word ranks as if the title named the word).
3. **The box at the top of a page is not what the page is about.** Its versions, devices, backend
   lines and downloads are the same words on nearly every page (jaxlib, TPU, notebook, programs):
   indexed, they led a query about TPUs to every page with a program. The box gets Sphinx's own
   ``no-search`` class when the page is written, so the index skips it (the page shows it as before).
4. **The pages that dwell on a word.** The index says only whether a page holds a word, so a page
   about TF32 and twenty pages that mention it once rank alike. While Sphinx indexes a page, this
   module counts its words (``counting_words``: the language's ``split`` keeps what it returns),
   and the index gets ``kbdwell``: for each word, the pages that use it most (``dwelling``), which
   ``kb-scorer.js`` ranks higher. The counts are kept beside Sphinx's own index, so that an
   incremental build, which indexes only the pages it writes again, still knows the others.
   A page's ``>>>`` examples (``pycon`` blocks, kb.examples) are indexed but not counted: the
   cheat sheet's hundreds of lines of calls (``jnp.array``, ``.at[i].set``) say which calls it
   shows, not what it is about, and counted they made it the one page that dwells on "array",
   "update" or "attention", ahead of the pages that explain them.
5. **The words readers ask a page in.** Pages say "programs", "emulated devices" and "parameter
   groups"; readers type "examples", "fake devices" and "different learning rates for layers".
   Each page states, in its front matter, the words readers use for what it answers
   (``myst: html_meta: keywords: "..."``: PyTorch names, colloquial words, error names). Sphinx
   translates a ``meta`` node like any text (so the Chinese words are in the page's catalogue) and
   indexes each comma-separated keyword whole; ``counting_words`` gives Sphinx the keyword's words
   instead (split as the language splits), and ``asked_words`` counts them as the page's title
   words, since they say what the page is about. They are kept beside the index with the counts.

Sphinx offers no hook into its index before it is written, and no extension does (1) or (2), hence
this module. An incremental build starts from the last build's index: Sphinx's own copy of it is
kept (``kb_searchindex_sphinx.json`` beside the doctrees) and put back when the build starts, so that
a search word never becomes a word of the pages. It reads and rewrites the index in the format Sphinx's own ``searchtools.js`` reads
(``Search.setIndex({...})``) and stops the build with a clear message if that format changes.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from sphinx.errors import ExtensionError

from docutils import nodes

from .glossary import alternatives, glossary_path, glossary_rows
from .languages import behaviour
from .page import HEADER_CLASS
from .search_zh import english_terms
from .translations import _

INDEX_RE = re.compile(r"\A\s*Search\.setIndex\((.*)\)\s*;?\s*\Z", re.S)


def search_words(tsv: Path, column: str) -> dict[str, list[str]]:
    """Each word of the glossary's ``search`` column, and the forms of the term it stands for in
    the build's language, whose terms are the glossary's ``column`` (its ``glossary`` in
    ``kb_languages``: the Chinese rendering or the English name, a bracketed part left out), and
    the term's abbreviation in capitals (pages of every language write OOM or FSDP as they are).

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "g.tsv"
    >>> _ = path.write_text("english\\tchinese\\tgloss\\tdisplay\\tnote\\tsearch\\n"
    ...     "out of memory (OOM)\\t内存不足\\tyes\\t内存不足（OOM，out of memory）\\t\\t爆显存 / 显存不足\\n"
    ...     "multi-process / multi-host\\t多进程 / 多主机\\tno\\t多进程（multi-process）\\t\\t多机\\n"
    ...     "device\\t设备\\tno\\t设备（device）\\t\\t\\n", encoding="utf-8")
    >>> search_words(path, "chinese")
    {'爆显存': ['内存不足', 'OOM'], '显存不足': ['内存不足', 'OOM'], '多机': ['多进程', '多主机']}
    >>> search_words(path, "english")["多机"]
    ['multi-process', 'multi-host']
    """
    words: dict[str, list[str]] = {}
    for row in glossary_rows(tsv):
        terms = [re.sub(r"\s*\([^)]*\)", "", part).strip("` ") for part in alternatives(row[column])]
        capitals = [inner for inner in re.findall(r"\(([^)]*)\)", row["english"]) if inner.isupper()]
        forms = terms + capitals
        for word in alternatives(row.get("search", "")):
            words[word] = forms
    return words


def _plain(text: str) -> str:
    """Lower case, words separated by single spaces: how a phrase is looked for in a title.

    >>> _plain("How do I avoid out-of-memory errors?")
    'how do i avoid out of memory errors'
    """
    return " ".join(re.findall(r"\w+", text.lower()))


def _files(entry) -> set[int]:
    if entry is None:
        return set()
    return {entry} if isinstance(entry, int) else set(entry)


def _entry(files: set[int]):
    return next(iter(files)) if len(files) == 1 else sorted(files)


def add_search_words(index: dict, words: dict[str, list[str]], split, stem, keep=lambda word: True) -> dict[str, int]:
    """Give each word the pages of its term, in ``index`` (Sphinx's ``terms`` and ``titleterms``).

    ``split``, ``stem`` and ``keep`` (its word filter: stop words are not in the index) are the
    build's search language's; a form of several words leads to the
    pages that hold all of them, and counts as a title word on the pages where a title holds it as
    a phrase; a term leads to the pages of any of its forms. Returns how many pages each word now
    leads to.

    >>> index = {"terms": {"gpu": [0, 1], "memory": [1, 2], "vram": 4}, "titleterms": {"memory": 3, "gpu": 3},
    ...          "alltitles": {"Free GPU memory": [[3, "free"]]}}
    >>> add_search_words(index, {"VRAM": ["GPU memory"], "OOM": ["out"]}, str.split, str.lower)
    {'VRAM': 3, 'OOM': 0}
    >>> index["terms"]["vram"], index["titleterms"]["vram"]
    ([1, 4], 3)
    """
    terms, titles = index["terms"], index["titleterms"]
    headings = {_plain(title): {file for file, _anchor in where} for title, where in index.get("alltitles", {}).items()}
    found = {}
    for word, forms in words.items():
        in_text, in_titles = set(), set()
        for form in forms:
            words_of_form = [part for part in split(form) if part.strip()]
            parts = [stem(part) for part in words_of_form if keep(stem(part))]
            if not parts:
                continue
            in_text |= set.intersection(*[_files(terms.get(p)) | _files(titles.get(p)) for p in parts])
            if len(words_of_form) == 1:
                in_titles |= _files(titles.get(parts[0]))
            else:  # the words of a form, as one phrase in a title ("out-of-memory errors")
                in_titles |= {f for title, files in headings.items() if _plain(form) in title for f in files}
        key = stem(word)
        if in_titles:
            titles[key] = _entry(_files(titles.get(key)) | in_titles)
        rest = (_files(terms.get(key)) | in_text) - _files(titles.get(key))
        if rest:
            terms[key] = _entry(rest)
        found[word] = len(_files(terms.get(key)) | _files(titles.get(key)))
    return found


def asked_words(index: dict, keywords: dict[str, list[str]]) -> None:
    """The words a page states that readers ask it in (its ``keywords``: ``html_meta`` in the
    page's front matter, translated in the language's catalogue like any text of the page) count
    as words of its titles: they say what the page is about, in the words readers type for it.
    ``keywords`` holds each page's words, stemmed as the index is.

    >>> index = {"docnames": ["a", "b"], "terms": {"tested": [0, 1], "fake": 1}, "titleterms": {"gpu": 0}}
    >>> asked_words(index, {"a": ["tested", "fake"], "b": ["gpu"]})
    >>> index["terms"], index["titleterms"]
    ({'tested': 1, 'fake': 1}, {'gpu': [0, 1], 'tested': 0, 'fake': 0})
    """
    pages = {name: number for number, name in enumerate(index["docnames"])}
    terms, titles = index["terms"], index["titleterms"]
    for name, words in keywords.items():
        if name not in pages:
            continue
        for word in words:
            titles[word] = _entry(_files(titles.get(word)) | {pages[name]})
            rest = _files(terms.get(word)) - {pages[name]}
            if rest:
                terms[word] = _entry(rest)
            else:
                terms.pop(word, None)


DWELL_MIN = 3  # a page dwells on a word it uses at least this often ...
DWELL_SHARE = 0.5  # ... and at least this share as often as the page that uses it most


def dwelling(counts: dict[str, dict[str, int]], index: dict) -> dict[str, int | list[int]]:
    """For each word of the index, the pages that dwell on it: those that use it at least
    ``DWELL_MIN`` times and at least ``DWELL_SHARE`` as often as the page that uses it most, when
    not every page that holds the word does (then the word tells the pages apart no better).
    ``counts`` are the words of each page (``docname -> word -> times``), stemmed as the index is.

    >>> index = {"docnames": ["a", "b", "c"], "terms": {"tf32": [0, 1, 2], "x": [0, 1]}, "titleterms": {"rare": 2}}
    >>> dwelling({"a": {"tf32": 23, "x": 4, "rare": 9}, "b": {"tf32": 5, "x": 3}, "c": {"tf32": 1}}, index)
    {'tf32': 0}
    """
    pages = {name: number for number, name in enumerate(index["docnames"])}
    found: dict[str, int | list[int]] = {}
    for word in sorted(set(index["terms"]) | set(index["titleterms"])):
        holders = _files(index["terms"].get(word)) | _files(index["titleterms"].get(word))
        times = {pages[name]: page[word] for name, page in counts.items() if name in pages and page.get(word)}
        if not times:
            continue
        most = max(times.values())
        dwellers = {number for number, n in times.items() if n >= DWELL_MIN and n >= DWELL_SHARE * most}
        if dwellers and len(dwellers) < len(holders):
            found[word] = _entry(dwellers)
    return found


def counting_words(app) -> None:
    """Count the words of each page as Sphinx indexes it: the index says only whether a page holds
    a word, and ``dwelling`` needs how often. The builder's ``index_page`` feeds a page to the
    index, which splits every text of the page with its language's ``split``; while it does, that
    ``split`` also keeps what it returns."""
    builder = app.builder
    index_page = builder.index_page
    counts = app.builder.kb_word_counts = {}
    keywords = app.builder.kb_keywords = {}

    def counted(pagename, doctree, title):
        lang = getattr(builder.indexer, "lang", None)
        if lang is None:
            return index_page(pagename, doctree, title)
        split, words = lang.split, []

        def keeping(text):
            found = split(text)
            words.extend(found)
            return found

        asks = [node for node in doctree.findall(nodes.meta) if node.get("name") == "keywords"]
        stated = {node: node["content"] for node in asks}
        for node in asks:  # Sphinx indexes each comma-separated keyword whole: give it the words
            node["content"] = ", ".join(split(node["content"].replace(",", " ")))
        lang.split = keeping
        try:
            index_page(pagename, doctree, title)
        finally:
            lang.split = split
            for node, content in stated.items():
                node["content"] = content
        keywords[pagename] = sorted(_stemmed_counts([w for node, c in stated.items() for w in split(c.replace(",", " "))],
                                                    lang, minimum=1))
        examples = [word for block in doctree.findall(nodes.literal_block) if block.get("language") == "pycon"
                    for word in split(block.astext())]
        counts[pagename] = _stemmed_counts(words, lang, examples)

    builder.index_page = counted


def _stemmed_counts(words: list[str], lang, leave_out: list[str] = (), minimum: int = DWELL_MIN) -> dict[str, int]:
    """How often each word occurs, stemmed and filtered as ``IndexBuilder.feed`` does, less the
    words of ``leave_out`` (the page's ``>>>`` examples); only the words a page uses at least
    ``minimum`` times are kept."""
    raw: dict[str, int] = {}
    for word in words:
        raw[word] = raw.get(word, 0) + 1
    for word in leave_out:
        raw[word] = raw.get(word, 0) - 1
    found: dict[str, int] = {}
    for word, n in raw.items():
        stemmed = lang.stem(word).lower()
        if not lang.word_filter(stemmed) and lang.word_filter(word):
            stemmed = word
        if lang.word_filter(stemmed):
            found[stemmed] = found.get(stemmed, 0) + n
    return {word: n for word, n in found.items() if n >= minimum}


def on_build_finished(app, exception) -> None:
    builder = app.builder
    if exception is not None or builder.format != "html" or getattr(builder, "indexer", None) is None:
        return
    path = Path(builder.outdir) / builder.searchindex_filename
    match = INDEX_RE.match(path.read_text(encoding="utf-8")) if path.is_file() else None
    if match is None:
        raise ExtensionError(f"kb.search: {path} is not Search.setIndex({{...}}) as this module expects; "
                             "the Sphinx version changed the search index format: update docs/_ext/kb/search.py")
    index = json.loads(match.group(1))
    sphinx_text = path.read_text(encoding="utf-8")
    lang = builder.indexer.lang
    before = json.loads(pristine(app).read_text(encoding="utf-8")) if pristine(app).is_file() else {}
    keywords = {name: page for name, page in before.get("keywords", {}).items() if name in index["docnames"]}
    keywords.update(getattr(builder, "kb_keywords", {}))  # the pages this build indexed
    asked_words(index, keywords)
    words = search_words(glossary_path(Path(app.confdir)), behaviour(app.config, "glossary"))
    add_search_words(index, words, lang.split, lambda w: lang.stem(w).lower(), lang.word_filter)
    counts = {name: page for name, page in before.get("counts", {}).items() if name in index["docnames"]}
    counts.update(getattr(builder, "kb_word_counts", {}))  # the pages this build indexed
    index["kbdwell"] = dwelling(counts, index)
    text = "Search.setIndex(" + json.dumps(index, ensure_ascii=False, separators=(",", ":"), sort_keys=True) + ")"
    keep = {"written": hashlib.sha256(text.encode()).hexdigest(), "sphinx": sphinx_text, "counts": counts,
            "keywords": keywords}
    pristine(app).parent.mkdir(parents=True, exist_ok=True)
    pristine(app).write_text(json.dumps(keep, ensure_ascii=False), encoding="utf-8")
    temporary = path.with_name(path.name + ".kb")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)


def pristine(app) -> Path:
    """Where Sphinx's own index of the last build is kept (not published), with the hash of the
    index this module wrote from it."""
    return Path(app.doctreedir) / "kb_searchindex_sphinx.json"


def on_builder_inited(app) -> None:
    """An incremental build starts from the index of the last one: give Sphinx back its own, so
    that the last build's search words (words of the index by then) do not come back as page
    words. Only if the index is still the one this module wrote (else it is Sphinx's already)."""
    builder = app.builder
    if builder.format == "html" and hasattr(builder, "index_page"):
        counting_words(app)
    path = Path(builder.outdir) / getattr(builder, "searchindex_filename", "searchindex.js")
    if builder.format != "html" or not pristine(app).is_file() or not path.is_file():
        return
    keep = json.loads(pristine(app).read_text(encoding="utf-8"))
    if hashlib.sha256(path.read_bytes()).hexdigest() == keep.get("written"):
        path.write_text(keep["sphinx"], encoding="utf-8")


def on_page_context(app, pagename, templatename, context, doctree) -> None:
    if pagename == "search":
        forms = search_words(glossary_path(Path(app.confdir)), behaviour(app.config, "glossary"))
        words = {"partial": _("No page holds every word of your search; these pages hold most of them."),
                 "forms": {word.lower(): terms for word, terms in forms.items()}}
        if behaviour(app.config, "search") == "jieba":  # the glossary's English terms, for kb-search-zh.js
            words["english"] = english_terms(glossary_path(Path(app.confdir)), behaviour(app.config, "glossary"))
        app.add_js_file(None, body=f"var KB_SEARCH_WORDS = {json.dumps(words, ensure_ascii=False)};", priority=100)


NO_SEARCH = "no-search"  # Sphinx's own class for nodes its index skips


def keep_build_box_out(app, doctree, docname) -> None:
    """The box at the top of each page (versions, devices, backend lines, downloads: the same
    words on nearly every page) stays out of the index, so that a word such as TPU, jaxlib or
    notebook leads to the pages about it, not to every page with a program.

    >>> from docutils.utils import new_document
    >>> doc = new_document("page")
    >>> doc += nodes.container("", nodes.paragraph(text="jaxlib 0.12 on TPU v5e"), classes=[HEADER_CLASS])
    >>> keep_build_box_out(None, doc, "page")
    >>> doc[0]["classes"]
    ['kb-header', 'no-search']
    """
    for box in doctree.findall(nodes.container):
        if HEADER_CLASS in box["classes"] and NO_SEARCH not in box["classes"]:
            box["classes"].append(NO_SEARCH)


def setup(app):
    app.connect("builder-inited", on_builder_inited)
    app.connect("doctree-resolved", keep_build_box_out)
    app.connect("html-page-context", on_page_context)
    app.connect("build-finished", on_build_finished)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
