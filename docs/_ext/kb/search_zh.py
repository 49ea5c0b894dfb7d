"""kb.search_zh: Chinese search that finds whole terms and answers sentence queries.

In the builds whose language has ``search: jieba`` in ``kb_languages`` (``kb.languages``):

1. The Chinese build requires jieba: without it Sphinx silently indexes no Chinese words, so the
   build stops with the install command instead.
2. A jieba user dictionary made from the glossary's Chinese terms (``kb.glossary.glossary_path``,
   the language's ``glossary`` column) and the short Chinese page titles keeps terms such as
   自动微分 whole in the index.
3. In the browser, a query is split with the index's own vocabulary, longest match first, so that
   a sentence such as 如何计算梯度 finds the pages about 梯度. The splitter is JavaScript in
   ``docs/_static/kb-search-zh.js``; Sphinx puts it into ``language_data.js`` of Chinese builds
   (Sphinx's search language ``zh``, which this module sets as ``html_search_language``).
   (The scorer that ranks a page whose title names a query word first, ``kb-scorer.js``, is set
   in ``conf.py`` as ``html_search_scorer`` and serves both languages.)

Sphinx's own Chinese search (``sphinx.search.zh``) does (1) only as a silent fallback and neither
(2) nor (3); no maintained extension does them.
"""

from __future__ import annotations

import logging as std_logging
import re
from pathlib import Path

from sphinx.errors import ExtensionError
from sphinx.search.zh import SearchChinese

from .glossary import glossary_path, glossary_rows
from .languages import behaviour
from .page import source_pages

SPLITTER = Path(__file__).resolve().parent.parent.parent / "_static" / "kb-search-zh.js"
CJK = re.compile(r"[\u3400-\u9fff]")


class KbSearchChinese(SearchChinese):
    """Sphinx's Chinese search, with a query splitter that uses the index's vocabulary."""

    js_splitter_code = SPLITTER.read_text(encoding="utf-8")


def glossary_terms(tsv: Path, column: str = "chinese") -> list[str]:
    """Chinese terms of the glossary (its ``column``), each alternative and parenthesised part on
    its own, and the Chinese words of its ``search`` column (``kb.search``).

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "g.tsv"
    >>> _ = path.write_text("english\\tchinese\\tnote\\tsearch\\nsharding\\t分片\\t\\t\\n"
    ...                     "leaf\\t叶子（叶节点）\\t\\t\\nflatten / unflatten\\t展平 / 还原\\t\\t\\n"
    ...                     "JIT\\t即时编译（JIT）\\t\\t\\ndevice\\t设备\\t\\t多卡 / card\\n", encoding="utf-8")
    >>> glossary_terms(path)
    ['分片', '叶子', '叶节点', '展平', '还原', '即时编译', '设备', '多卡']
    """
    terms: list[str] = []
    for row in glossary_rows(tsv):
        for part in re.split(r"[（）()/、，,]", row.get(column, "") + "/" + row.get("search", "")):
            part = part.strip()
            if CJK.search(part) and part not in terms:
                terms.append(part)
    return terms


def page_title_terms(srcdir: Path, pages: list[str], locale_dir: Path) -> list[str]:
    """Short Chinese page titles (the translations of each page's ``# Title``)."""
    import polib

    terms = []
    for docname in pages:
        page = srcdir / f"{docname}.md"
        po = locale_dir / f"{docname}.po"
        match = re.search(r"^# (.+)$", page.read_text(encoding="utf-8"), re.M) if page.is_file() else None
        if not match or not po.exists():
            continue
        entry = polib.pofile(str(po)).find(match.group(1).strip())
        if entry and entry.msgstr:
            chinese = re.sub(r"（[^）]*）|\([^)]*\)|`[^`]*`", "", entry.msgstr)
            for part in re.split(r"[\s：:，,、与和及]+", chinese):
                if CJK.search(part) and 2 <= len(part) <= 10 and not re.search(r"[A-Za-z]", part):
                    terms.append(part)
    return terms


def write_search_dictionary(app) -> Path:
    """A jieba user dictionary: glossary terms and short page titles, kept whole when indexed."""
    srcdir = Path(app.srcdir)
    terms = glossary_terms(glossary_path(Path(app.confdir)), behaviour(app.config, "glossary"))
    pages = source_pages(srcdir, app.config.exclude_patterns, app.config.source_suffix)
    terms += page_title_terms(srcdir, pages, srcdir / "locales" / app.config.language / "LC_MESSAGES")
    path = Path(app.doctreedir) / "kb_search_dict.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"{term} 100000 n" for term in dict.fromkeys(terms)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def on_builder_inited(app) -> None:
    if behaviour(app.config, "search") != "jieba" or app.builder.format != "html":
        return
    try:
        import jieba
    except ImportError as error:
        raise ExtensionError(
            "The Chinese build needs jieba for its search index (without it Sphinx silently indexes "
            "no Chinese words): pip install -r requirements.txt"
        ) from error
    jieba.setLogLevel(std_logging.WARNING)  # no "Building prefix dict..." on stderr
    path = write_search_dictionary(app)
    # The search index (and its jieba) is made later, when writing starts.
    app.config.html_search_options = {**(app.config.html_search_options or {}), "dict": str(path)}
    app.config.html_search_language = app.config.html_search_language or KbSearchChinese.lang  # zh_CN finds zh too


def setup(app):
    app.add_search_language(KbSearchChinese)
    app.connect("builder-inited", on_builder_inited)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
