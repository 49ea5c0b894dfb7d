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
4. Before it is cut, a query is made the text the site writes: full-width letters and digits
   become ASCII, a character typed in traditional script becomes the simplified one the pages
   write (``traditional_pairs``: OpenCC's table in ``docs/_data/zh_traditional.tsv``, the pairs
   this site needs, given to the splitter as ``KB_TRADITIONAL``), and in a Chinese query a
   glossary term typed in English becomes the Chinese term (``english_terms``, given to the search
   page by ``kb.search``): 顯存 finds 显存, "gradient clipping 怎么写" finds 梯度裁剪.

Sphinx's own Chinese search (``sphinx.search.zh``) does (1) only as a silent fallback and neither
(2) nor (3); no maintained extension does them.
"""

from __future__ import annotations

import json
import logging as std_logging
import re
from pathlib import Path

from sphinx.errors import ExtensionError
from sphinx.search.zh import SearchChinese

from .glossary import alternatives, glossary_path, glossary_rows
from .languages import behaviour
from .page import source_pages

SPLITTER = Path(__file__).resolve().parent.parent.parent / "_static" / "kb-search-zh.js"
CJK = re.compile(r"[\u3400-\u9fff]")


class KbSearchChinese(SearchChinese):
    """Sphinx's Chinese search, with a query splitter that uses the index's vocabulary (and the
    traditional characters the build passes in ``html_search_options["traditional"]``)."""

    js_splitter_code = SPLITTER.read_text(encoding="utf-8")

    def __init__(self, options: dict[str, str]) -> None:
        super().__init__(options)
        self.js_splitter_code = splitter_code(options.get("traditional", ""))


def splitter_code(traditional: str) -> str:
    """The query splitter, after ``KB_TRADITIONAL``: pairs of characters, traditional then simplified.

    >>> splitter_code("顯显").splitlines()[0]
    'var KB_TRADITIONAL = "顯显";'
    """
    return f"var KB_TRADITIONAL = {json.dumps(traditional, ensure_ascii=False)};\n" + SPLITTER.read_text(encoding="utf-8")


TRADITIONAL = Path(__file__).resolve().parent.parent.parent / "_data" / "zh_traditional.tsv"


def traditional_pairs(table: Path, written: str) -> str:
    """The table's pairs (``traditional<TAB>simplified``) that a query on this site needs: those whose
    simplified character the site ``written`` uses and whose traditional one it never does (著 is
    a traditional form of 着, but the site writes 显著), as one string of character pairs.

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "t.tsv"
    >>> _ = path.write_text("# from OpenCC\\ntraditional\\tsimplified\\n顯\\t显\\n著\\t着\\n龜\\t龟\\n", encoding="utf-8")
    >>> traditional_pairs(path, "显存很显著，跟着")
    '顯显'
    """
    used = set(CJK.findall(written))
    pairs = []
    for line in table.read_text(encoding="utf-8").splitlines():
        old, _, new = line.partition("\t")
        if len(old) == 1 == len(new) and new in used and old not in used:  # not a comment, not the header
            pairs.append(old + new)
    return "".join(pairs)


def site_text(locale_dir: Path, tsv: Path) -> str:
    """The Chinese the site writes: its catalogues and its glossary."""
    return "".join(path.read_text(encoding="utf-8") for path in sorted(locale_dir.rglob("*.po"))) + tsv.read_text(encoding="utf-8")


def english_terms(tsv: Path, column: str = "chinese") -> dict[str, list[str]]:
    """The glossary's English terms that a Chinese query may hold, lower case, each with the forms
    of its Chinese term (the ``column``, bracketed parts left out). Left out: terms written as code
    (```pmap```), abbreviations in capitals (XLA, SPMD: the Chinese pages write them as they are),
    and terms the Chinese column writes the same (pytree, dropout).

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "g.tsv"
    >>> _ = path.write_text("english\\tchinese\\n"
    ...     "gradient clipping\\t梯度裁剪\\nmulti-process / multi-host\\t多进程 / 多主机\\n"
    ...     "just-in-time (JIT) compilation\\t即时编译\\n`pmap`\\t`pmap`\\nXLA\\tXLA\\ndropout\\tdropout\\n"
    ...     "SPMD\\t单程序多数据\\nGPU memory\\tGPU 内存\\n", encoding="utf-8")
    >>> english_terms(path)  # doctest: +NORMALIZE_WHITESPACE
    {'gradient clipping': ['梯度裁剪'], 'multi-process': ['多进程'], 'multi-host': ['多主机'],
     'just-in-time compilation': ['即时编译'], 'gpu memory': ['GPU 内存']}
    """
    found: dict[str, list[str]] = {}
    for row in glossary_rows(tsv):
        if "`" in row["english"]:
            continue
        chinese = [re.sub(r"（[^）]*）|\([^)]*\)", "", part).strip() for part in alternatives(row.get(column, ""))]
        chinese = [part for part in chinese if CJK.search(part)]
        names = alternatives(row["english"])
        for number, part in enumerate(names):
            english = " ".join(re.sub(r"\([^)]*\)", "", part).split())
            # "flatten / unflatten" is "展平 / 还原": one term each, in order
            forms = [chinese[number]] if len(names) == len(chinese) > 1 else chinese
            if not english or english.isupper() or not forms or english.lower() in (c.lower() for c in forms):
                continue
            found.setdefault(english.lower(), forms)
    return found


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
    written = site_text(Path(app.srcdir) / "locales" / app.config.language / "LC_MESSAGES",
                        glossary_path(Path(app.confdir)))
    app.config.html_search_options = {**(app.config.html_search_options or {}), "dict": str(path),
                                      "traditional": traditional_pairs(TRADITIONAL, written)}
    app.config.html_search_language = app.config.html_search_language or KbSearchChinese.lang  # zh_CN finds zh too


def setup(app):
    app.add_search_language(KbSearchChinese)
    app.connect("builder-inited", on_builder_inited)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
