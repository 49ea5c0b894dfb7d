"""Counts that show where the Chinese still reads as translated (TRANSLATING.md, "Read as written in Chinese").

A native review of the catalogues in December 2026 measured these by
script; this module measures them the same way on every page catalogue, so that a pass over the
catalogues can be checked and a regression is caught by ``tests/test_zh_style.py``:

- ``heading_problems``: a "How ..." heading translated with 如何 or 怎么 (the site writes 怎样);
- ``word_problems``: renderings the glossary's notes rule out (本项目 for the pinned versions,
  批大小, 小批量, 中间值, 活跃区间, 错误报告, 性能剖析, 即时执行模式 ...), and English words left in
  prose that the glossary gives a Chinese term for (checkpointer, tape, carry, pass, extra, rank);
- ``taiwan_words``: Taiwan usage (列印, 程式, 檔案, 软体 ...) where mainland Chinese has its own word,
  in any Chinese the site shows (the pages here; the theme's words in tests/test_zh_style.py);
- ``pinned_problems``: "the pinned JAX" written 固定的 JAX without 本站 (本站固定版本的 JAX);
- ``halfwidth_quotes``, ``quote_spaces``, ``percent_spaces``: half-width "…" in a Chinese sentence,
  spaces inside or around “…”, a space between a number and %;
- ``unglossed_terms``: a ``gloss: yes`` term a page uses but never glosses 中文（English）;
- ``long_sentences``: sentences of more than ``LONG`` characters (as a reader sees them: code included, spaces and link targets not);
- ``rates``: 它/它们, standalone 一个, 被 and glosses per 1,000 CJK characters, and how many times
  a page repeats the "as the snippet asserts" aside;
- ``generated_problems``: the text our extension writes into a built page (the header box's lines,
  the box beside a timing cell's output, the status page's list and table, the floors table: kb.po's
  templates filled with machines, counts and statuses), which no catalogue holds as a reader sees it:
  half-width punctuation and brackets, brackets inside brackets, a space next to full-width
  punctuation, Taiwan usage and English words of the templates (“cores”, “pinned”, “backend”).
  ``python -m tools.zh_style --built`` lists them for the built site, ``tests/test_site.py`` holds
  them at zero.

These are rules of written (mainland, simplified) Chinese, not of a script: they apply to the page
catalogues of the translations whose glossary column (``glossary`` in ``kb_languages``) is ``chinese``,
``LANGUAGES`` (today zh_CN), and to no other language, CJK or not; a language of its own brings its
own rules.

Run ``python -m tools.zh_style [catalogue.po ...]`` for a table (default: every page catalogue),
``python -m tools.zh_style --built`` for the generated text of the built Chinese pages.
"""

from __future__ import annotations

import functools
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .glossary import CODE_RE, EXCEPTION_RE, Term, glossed_term, glosses, load, named_pairs
from .site import DOCS, HTML, LOCALES, ROOT, built_pages, languages_where

CJK = re.compile(r"[\u3400-\u9fff]")
# Code and roles as the glossary checks see them, and link targets and addresses besides.
CODE = re.compile(CODE_RE.pattern + r"|\]\([^)]*\)|https?://\S+")
LONG = 110
LANGUAGES = languages_where("glossary", "chinese")  # the languages these rules are for
# The question word of a "How ..." heading (TRANSLATING.md): 怎样.
HOW_HEADING = re.compile(r"^How\b")
OTHER_HOW = re.compile(r"如何|怎么")
# Renderings the glossary rules out, with the word to write instead.
RULED_OUT = {
    "本项目": "本站 (the site's pinned versions: 本站固定版本的)",
    "批大小": "批次大小",
    "小批量": "小批次",
    "中间值": "中间结果",
    "活跃区间": "存活区间",
    "错误报告": "问题报告",
    "页面顶部的信息框": "页首的信息框",
    "Explicit 轴": "显式轴",
    "Auto 轴": "自动轴",
    "Manual 轴": "手动轴",
    "固定默认值": "默认值（本站版本）",
    "性能剖析": "性能分析结果 (the noun), 性能分析 (the verb)",
    "性能分析数据": "性能分析结果",
    "即时执行模式": "eager 模式 (即时 is for 即时编译)",
}
# Taiwan usage, in either script, with the mainland word (TRANSLATING.md): words that simplified
# Chinese does not use in these senses. 程式 stays allowed inside 方程式 and 程式化.
TAIWAN = {
    "列印": "打印", "原始码": "源代码", "原始碼": "源代码", "程式码": "代码", "程式碼": "代码", "程式": "程序",
    "档案": "文件", "檔案": "文件", "資料": "数据", "預設": "默认", "软体": "软件", "軟體": "软件",
    "网路": "网络", "網路": "网络", "记忆体": "内存", "伺服器": "服务器", "执行绪": "线程", "函式": "函数",
    "萤幕": "屏幕", "硬碟": "硬盘", "最佳化": "优化", "介面": "界面 or 接口", "资料夹": "文件夹",
}
TAIWAN_RE = re.compile("|".join(re.escape(w) if w != "程式" else r"(?<![方工])程式(?!化)"
                                for w in sorted(TAIWAN, key=len, reverse=True)))
# Full-width punctuation and CJK: what a Chinese sentence puts next to a quote.
CHINESE_SIDE = re.compile(r"[\u3400-\u9fff，。、：；？！（）《》“”]")
HALF_QUOTED = re.compile(r'"([^"\n]*)"')
QUOTED = re.compile(r"(\s*)“([^“”]*)”(\s*)")
PERCENT = re.compile(r"(\d+(?:[.,]\d+)*)\s+([%％])")
# English words that the glossary renders in Chinese; they may stay only inside a gloss 中文（English）.
ENGLISH_WORDS = ("checkpointer", "manager", "tape", "carry", "pass", "extra", "rank", "fake", "treedef")
ASIDE = re.compile(r"代码片段[^。；]{0,12}断言")
IT = re.compile(r"它们?")
ONE = re.compile(r"(?<![同下另第单每这那哪任某])一个")


def _prose(text: str) -> str:
    return CODE.sub(" ", text)


def _shown(text: str) -> str:
    """Code, roles and link targets as one placeholder character: the spacing around them still counts."""
    return CODE.sub("\x00", text)


def _cjk(text: str) -> int:
    return len(CJK.findall(text))


def page_headings(md: Path) -> set[str]:
    """The text of each heading of a MyST page (``#`` lines outside code fences)."""
    headings, fence = set(), None
    for line in md.read_text(encoding="utf-8").splitlines():
        marker = re.match(r"^(`{3,}|~{3,})", line)
        if marker:
            fence = None if fence and line.startswith(fence) else (fence or marker.group(1))
            continue
        if fence is None and re.match(r"^#{1,6} ", line):
            headings.add(line.lstrip("#").strip())
    return headings


def not_prose(md: Path) -> set[str]:
    """The texts of a MyST page where no gloss goes (TRANSLATING.md): headings, table cells, the
    lines of its See-also list, and the titles and lines of grid cards (a layout of short labels).

    >>> import tempfile
    >>> md = Path(tempfile.mkdtemp()) / "p.md"
    >>> _ = md.write_text("# Title\\n\\nProse.\\n\\n| a | `b` |\\n|---|---|\\n\\n:::{grid-item-card} Card\\n:link: x\\n\\n"
    ...                   "Its line.\\n:::\\n\\n## See also\\n\\n- {ref}`x`: more.\\n", encoding="utf-8")
    >>> sorted(not_prose(md))
    ['Card', 'Its line.', 'See also', 'Title', '`b`', 'a', '{ref}`x`: more.']
    """
    texts, fence, see_also, card = set(), None, False, False
    for line in md.read_text(encoding="utf-8").splitlines():
        marker = re.match(r"^(`{3,}|~{3,})", line)
        if marker:
            fence = None if fence and line.startswith(fence) else (fence or marker.group(1))
            continue
        if fence is not None:
            continue
        heading = re.match(r"^#{1,6} (.*)", line)
        opened = re.match(r"^:{3,}\{grid-item-card\}\s*(.*)", line)
        if heading:
            texts.add(heading.group(1).strip())
            see_also = heading.group(1).strip().lower() == "see also"
        elif opened:
            card = True
            texts.add(opened.group(1).strip())
        elif card and re.match(r"^:{3,}\s*$", line):
            card = False
        elif card and line.strip() and not line.startswith(":"):
            texts.add(line.strip())
        elif line.startswith("|"):
            cells = (cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip().strip("|")))
            texts.update(cell for cell in cells if cell and not re.fullmatch(r":?-+:?", cell))
        elif see_also and re.match(r"^[-*] ", line):
            texts.add(line[2:].strip())
    return texts


def heading_problems(entries, headings: set[str]) -> list[str]:
    """'How ...' headings not rendered with 怎样.

    >>> from types import SimpleNamespace as E
    >>> heading_problems([E(msgid="How do I time it?", msgstr="如何计时？"),
    ...                   E(msgid="How do I jit it?", msgstr="怎样编译？")], {"How do I time it?", "How do I jit it?"})
    ["heading 'How do I time it?': 如何计时？ (write 怎样)"]
    """
    return [f"heading {e.msgid!r}: {e.msgstr} (write 怎样)" for e in entries
            if e.msgstr and e.msgid in headings and HOW_HEADING.match(e.msgid) and OTHER_HOW.search(e.msgstr)]


def word_problems(entries) -> list[str]:
    """Ruled-out renderings, and English words of the list above left outside code and glosses.

    >>> from types import SimpleNamespace as E
    >>> word_problems([E(msgid="x", msgstr="本项目固定的 JAX 里，循环的 carry 和 `carry`。"),
    ...                E(msgid="y", msgstr="循环携带量（carry）")])
    ["'本项目' in '本项目固定的 JAX 里，循环的 carry 和 `carry`。' (write 本站 (the site's pinned versions: 本站固定版本的))", "English 'carry' in '本项目固定的 JAX 里，循环的 carry 和 `carry`。'"]
    """
    problems = []
    for entry in entries:
        text = _prose(entry.msgstr or "")
        for wrong, right in RULED_OUT.items():
            if wrong in text:
                problems.append(f"{wrong!r} in {entry.msgstr[:100]!r} (write {right})")
        bare = re.sub(r"（[^（）]*）", " ", text)  # glosses may carry the English
        for word in ENGLISH_WORDS:
            if re.search(rf"(?<![\w.-]){word}(?![\w-])", bare, re.I):
                problems.append(f"English {word!r} in {entry.msgstr[:100]!r}")
    return problems


def taiwan_words(text: str) -> list[str]:
    """Taiwan usage in a Chinese text, with the mainland word.

    >>> taiwan_words("列印成 PDF；解方程式；程式化；把檔案存进程式码目录")
    ['列印 (write 打印)', '檔案 (write 文件)', '程式码 (write 代码)']
    """
    return [f"{m.group()} (write {TAIWAN[m.group()]})" for m in TAIWAN_RE.finditer(text)]


def taiwan_problems(entries) -> list[str]:
    """Taiwan usage in the translations, code excluded."""
    return [f"Taiwan usage {word} in {e.msgstr[:100]!r}" for e in entries for word in taiwan_words(_prose(e.msgstr or ""))]


def pinned_problems(entries) -> list[str]:
    """An entry whose English says "pinned" (the site's pinned version) and whose Chinese writes
    固定的 without 本站 (write 本站固定版本的 …). A translator comment ``kb-glossary: pinned: why``
    accepts another sense.

    >>> from types import SimpleNamespace as E
    >>> pinned_problems([E(msgid="In the pinned JAX, it fails.", msgstr="在固定的 JAX 版本里会失败。", tcomment=""),
    ...                  E(msgid="In the pinned JAX, `x` runs.", msgstr="在本站固定的 JAX 版本里，`x` 可以运行。", tcomment=""),
    ...                  E(msgid="Pin it: a pinned version.", msgstr="固定的版本。", tcomment="kb-glossary: pinned: yours")])
    ["'固定的' without 本站 for 'pinned' in '在固定的 JAX 版本里会失败。' (write 本站固定版本的 …)"]
    """
    problems = []
    for entry in entries:
        accepted = {m.strip().lower() for m in EXCEPTION_RE.findall(getattr(entry, "tcomment", "") or "")}
        if "pinned" in accepted or not re.search(r"\bpinned\b", _prose(entry.msgid), re.I):
            continue
        for _ in re.finditer(r"(?<!本站)固定的", _prose(entry.msgstr or "")):
            problems.append(f"'固定的' without 本站 for 'pinned' in {entry.msgstr[:100]!r} (write 本站固定版本的 …)")
    return problems


def halfwidth_quotes(entries) -> list[str]:
    """Half-width "…" with Chinese text or full-width punctuation on both sides (a space between
    allowed; code excluded): a Chinese sentence quotes with “…”.

    >>> from types import SimpleNamespace as E
    >>> halfwidth_quotes([E(msgid="x", msgstr='选择 "Capture profile"，地址填 `"localhost:9999"`。'),
    ...                   E(msgid="y", msgstr='参数写成 --name="a b"，见上文。'), E(msgid="z", msgstr='Set "x".')])
    ['half-width quotes in a Chinese sentence: "Capture profile" (write “Capture profile”)']
    """
    problems = []
    for entry in entries:
        text = _shown(entry.msgstr or "")
        if not CJK.search(text):
            continue
        for match in HALF_QUOTED.finditer(text):
            before, after = text[:match.start()].rstrip(" ")[-1:], text[match.end():].lstrip(" ")[:1]
            if CHINESE_SIDE.match(before or "。") and CHINESE_SIDE.match(after or "。"):
                problems.append(f"half-width quotes in a Chinese sentence: {match.group()} (write “{match.group(1)}”)")
    return problems


def quote_spaces(entries) -> list[str]:
    """Spaces inside or around “…” in Chinese text (none next to full-width punctuation; code excluded).

    >>> from types import SimpleNamespace as E
    >>> for p in quote_spaces([E(msgid="x", msgstr="和 “compiled, not run” 这一行；以“without”开头；即“单体式” `jaxlib`，`'“ a ”'`。")]):
    ...     print(p)
    spaces around “compiled, not run”: 和 “compiled, not run” 这一
    spaces around “单体式”: 即“单体式” `j
    """
    problems = []
    for entry in entries:
        text = entry.msgstr or ""
        code = [m.span() for m in CODE.finditer(text)]
        for match in QUOTED.finditer(text):
            before, inner, after = match.groups()
            inside_code = any(start <= match.start(2) < end for start, end in code)
            if (before or after or inner != inner.strip()) and not inside_code:
                context = text[max(match.start() - 1, 0):match.end() + 2].replace("\n", " ")
                problems.append(f"spaces around “{inner.strip()}”: {context}")
    return problems


def percent_spaces(entries) -> list[str]:
    """A space between a number and % in Chinese text.

    >>> from types import SimpleNamespace as E
    >>> percent_spaces([E(msgid="x", msgstr="循环在 80 % 之前结束，占 3.1%；`print(f'{x} %')`。"), E(msgid="y", msgstr="80 % of it")])
    ['a space before %: 80 % (write 80%)']
    """
    return [f"a space before %: {m.group()} (write {m.group(1)}{m.group(2)})" for e in entries
            if CJK.search(_prose(e.msgstr or "")) for m in PERCENT.finditer(_prose(e.msgstr or ""))]


def unglossed_terms(entries, terms: list[Term], skip: set[str] = frozenset()) -> list[str]:
    """``gloss: yes`` terms that a page's prose uses (its English names the term, its Chinese writes
    the glossary's word) but that the page never glosses 中文（English） (TRANSLATING.md: once, at
    the first use). Entries whose English is in ``skip`` (headings, table cells, See-also lines) are
    not prose. A ``{term}`` role for the term counts as its gloss, and so does the gloss of a compound
    (降级规则（lowering rule） for 降级) or of a longer term that contains the word (设备网格（device mesh）
    for 网格). A translator comment ``kb-glossary: <english>: why`` marks another sense of the word.

    >>> from types import SimpleNamespace as E
    >>> terms = [Term("autotuning", "自动调优", True, "自动调优（autotuning）"), Term("device mesh", "设备网格", True, ""),
    ...          Term("mesh", "网格", True, ""), Term("sharding", "分片", True, ""), Term("device", "设备", False, "")]
    >>> for p in unglossed_terms([E(msgid="Autotuning", msgstr="自动调优"),
    ...         E(msgid="Autotuning picks a kernel for each device.", msgstr="自动调优为每个设备选出内核。"),
    ...         E(msgid="Build a device mesh; the mesh has 2 axes.", msgstr="建一个设备网格（device mesh），网格有两个轴。"),
    ...         E(msgid="Sharding splits it.", msgstr="分片（{term}`sharding`）把它切开。")], terms, {"Autotuning"}):
    ...     print(p)
    'autotuning' is written 自动调优 but never glossed on the page: write 自动调优（autotuning） once, at its first use in the prose: '自动调优为每个设备选出内核。'
    """
    glossed: set[str] = set()  # English names
    glossed_words: set[str] = set()  # their Chinese
    used: dict[str, tuple[Term, str]] = {}
    for entry in entries:
        text = entry.msgstr or ""
        named = [glossed_term(gloss, terms) for gloss in glosses(text)]
        named += [term for gloss in glosses(text) for term, _, _ in named_pairs(gloss, terms)]  # 降级规则（lowering rule）
        for role in re.findall(r"\{term\}`([^`]*)`", text):
            target = re.search(r"<([^<>]*)>\s*$", role)
            named.append(glossed_term((target.group(1) if target else role).strip(), terms))
        glossed.update(term.english for term in named if term is not None)
        glossed_words.update(term.chinese for term in named if term is not None and term.gloss)
        if entry.msgid in skip or not text:
            continue
        prose = _prose(text)
        accepted = {m.strip().lower() for m in EXCEPTION_RE.findall(getattr(entry, "tcomment", "") or "")}
        for term, _english, chinese in named_pairs(entry.msgid, terms):
            if (term.gloss and not term.chinese.startswith("`") and chinese != term.english and chinese in prose
                    and term.english.lower() not in accepted):
                used.setdefault(term.english, (term, text))
    problems = []
    for name, (term, text) in used.items():
        if name in glossed or any(term.chinese in word and term.chinese != word for word in glossed_words):
            continue
        display = term.display or f"{term.chinese}（{term.english}）"
        problems.append(f"{name!r} is written {term.chinese} but never glossed on the page: write {display} "
                        f"once, at its first use in the prose: {text[:80]!r}")
    return problems


def interface_problems(text: str) -> list[str]:
    """What a short string of the interface (a tooltip, the footer, a button's message) must not
    show: Taiwan usage, half-width punctuation next to Chinese, a space next to full-width punctuation.

    >>> interface_problems("作者： JAX 知识库作者")
    ["a space next to '：' in '作者： JAX 知识库作者'"]
    >>> interface_problems("复制成功!")
    ["half-width '!' next to Chinese in '复制成功!'"]
    >>> interface_problems("列印成 PDF")
    ["Taiwan usage 列印 (write 打印) in '列印成 PDF'"]
    >>> interface_problems("由 JAX 知识库作者编写；{title}：{result}（.ipynb）")
    []
    """
    found = [f"Taiwan usage {word} in {text!r}" for word in taiwan_words(text)]
    found += [f"half-width {m.group(1) or m.group(2)!r} next to Chinese in {text!r}"
              for m in re.finditer(r"(?<=[\u3400-\u9fff])([,!?;:])|([,!?;:])(?=[\u3400-\u9fff])", text)]
    found += [f"a space next to {(m.group(1) or m.group(2))!r} in {text!r}"
              for m in re.finditer(r"([，。：；！？、（）“”]) | ([，。：；！？、（）“”])", text)]
    return found


def sentences(text: str) -> list[str]:
    """A translation's reading units, split after 。！？ and ；(a list of clauses joined by semicolons
    reads as its clauses; code and links included, as a reader sees them).

    >>> [len(s) for s in sentences("短句。" + "长" * 120 + "，`code`。前半；后半。")]
    [3, 128, 3, 3]
    """
    return [s.strip() for s in re.split(r"(?<=[。！？；])", text) if s.strip()]


def long_sentences(entries, limit: int = LONG) -> list[str]:
    """Sentences longer than ``limit`` characters in a CJK translation (tables and code excluded)."""
    return [s for e in entries if e.msgstr and CJK.search(e.msgstr) for s in sentences(e.msgstr)
            if length(s) > limit and CJK.search(s) and not _mostly_code(s)]


def _mostly_code(sentence: str) -> bool:
    """Code is most of the sentence (a signature, a list of API names): nothing to split.

    >>> _mostly_code("签名是 `jax.shard_map(f=None, /, *, out_specs, in_specs=Infer, mesh=None)`。")
    True
    >>> _mostly_code("常调用 `jax.tree_map`、`jax.tree_leaves` 和 `jax.tree_flatten`，" + "这些函数" * 10 + "。")
    False
    """
    spans = re.findall(r"`+([^`]+)`+", sentence)
    return sum(len(span) for span in spans) > length(sentence) / 2


def length(sentence: str) -> int:
    """Characters a reader reads: code spans as they show, a role or link as its text, no spaces.

    >>> length("用 `jax.numpy.linalg.norm` 计算，见 {ref}`这一节 <core-jit>` 和 [指南](https://x.org)。")
    33
    """
    shown = re.sub(r"\{[a-z:]+\}`([^`<]*?)\s*(<[^>]*>)?`", r"\1", sentence)
    shown = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", shown)
    return len(re.sub(r"[\s`]+", "", shown))


@dataclass
class Rates:
    cjk: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    def per_thousand(self, name: str) -> float:
        return 1000 * self.counts.get(name, 0) / max(self.cjk, 1)


def rates(entries) -> Rates:
    result = Rates(counts={"它": 0, "一个": 0, "被": 0, "gloss": 0, "aside": 0})
    for entry in entries:
        text = _prose(entry.msgstr or "")
        result.cjk += _cjk(text)
        result.counts["它"] += len(IT.findall(text))
        result.counts["一个"] += len(ONE.findall(text))
        result.counts["被"] += text.count("被")
        result.counts["gloss"] += len(re.findall(r"(?<=[\u3400-\u9fff])（[^（）\u3400-\u9fff]*[A-Za-z][^（）]*）", text))
        result.counts["aside"] += len(ASIDE.findall(text))
    return result


@functools.lru_cache(maxsize=1)
def _glossary() -> tuple[Term, ...]:
    return tuple(load())


def problems_by_check(path: Path) -> dict[str, list[str]]:
    """What each check finds in one page catalogue (the glossary page itself is all glosses: no
    gloss check there)."""
    import polib

    entries = [e for e in polib.pofile(str(path)) if e.msgstr]
    md = DOCS / page_of(path).with_suffix(".md")
    headings = page_headings(md) if md.is_file() else set()
    glossary_page = path.as_posix().endswith("reference/glossary.po")
    return {
        "headings": heading_problems(entries, headings),
        "words": word_problems(entries) + taiwan_problems(entries) + pinned_problems(entries),
        "punctuation": halfwidth_quotes(entries) + quote_spaces(entries) + percent_spaces(entries),
        "unglossed": [] if glossary_page else unglossed_terms(entries, list(_glossary()),
                                                              not_prose(md) if md.is_file() else set()),
        "sentences": [f"a sentence of {length(s)} characters (more than {LONG}): {s[:60]}…"
                      for s in long_sentences(entries)],
    }


def catalogue_problems(path: Path) -> list[str]:
    """Everything the checks above find in one page catalogue: what tests/test_zh_style.py rejects."""
    return [problem for found in problems_by_check(path).values() for problem in found]


def page_of(path: Path) -> Path:
    """A page catalogue's page: ``<language>/LC_MESSAGES/core/jit.po`` -> ``core/jit.po``.

    >>> page_of(LOCALES / "zh_CN" / "LC_MESSAGES" / "core" / "jit.po").as_posix()
    'core/jit.po'
    """
    return Path(*path.relative_to(LOCALES).parts[2:])


def page_catalogues(languages: tuple[str, ...] = LANGUAGES, locales: Path = LOCALES) -> list[Path]:
    return [p for language in languages
            for p in sorted((locales / language / "LC_MESSAGES").rglob("*.po")) if p.name != "sphinx.po"]


def report(paths: list[Path]) -> str:
    import polib

    lines = ["| catalogue | CJK | 它/1000 | 一个/1000 | 被/1000 | glosses/1000 | asides | > 110 | headings | words "
             "| punctuation | unglossed |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for path in paths:
        entries = [e for e in polib.pofile(str(path)) if e.msgstr]
        found = problems_by_check(path)
        r = rates(entries)
        lines.append(f"| {page_of(path)} | {r.cjk} | {r.per_thousand('它'):.1f} "
                     f"| {r.per_thousand('一个'):.1f} | {r.per_thousand('被'):.1f} | {r.per_thousand('gloss'):.2f} "
                     f"| {r.counts['aside']} | {len(found['sentences'])} | {len(found['headings'])} "
                     f"| {len(found['words'])} | {len(found['punctuation'])} | {len(found['unglossed'])} |")
    return "\n".join(lines)


# --- The text our extension writes into the built pages ---------------------------------------------


def generated_classes() -> tuple[str, ...]:
    """The HTML classes of what kb writes into a page from kb.po's templates and the build's data."""
    from kb.accelerator_runs import ACCELERATOR_RUN_CLASS
    from kb.accelerator_status import TABLE_CLASS
    from kb.page import HEADER_CLASS

    return (HEADER_CLASS, ACCELERATOR_RUN_CLASS, "kb-backends", TABLE_CLASS, "kb-floors-table")


def generated_lines(page_html: str, classes: tuple[str, ...]) -> list[str]:
    """Each paragraph, list item or table cell inside an element of ``classes``, as a reader reads
    it, with each code span or block (a file name, an error, the output) as one ``\\x00``.

    >>> generated_lines('<div class="kb-header x"><p><strong>TPU v5e</strong>：<a href="#">1 个失败</a></p>'
    ...                 '<p>设备：<code>a</code><code>b</code></p></div><p>不是生成的</p><pre>x</pre>', ("kb-header",))
    ['TPU v5e：1 个失败', '设备：\\x00\\x00']
    """
    from html.parser import HTMLParser

    blocks, void = {"p", "li", "td", "th", "div", "dt", "dd", "caption", "table", "ul", "ol"}, {"br", "img", "hr", "col", "wbr", "input"}
    lines: list[str] = []

    class Reader(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.open, self.inside, self.code, self.text = [], 0, 0, []

        def flush(self):
            line = " ".join("".join(self.text).split())
            self.text = []
            if line.strip("\x00 "):
                lines.append(line)

        def handle_starttag(self, tag, attrs):
            if tag in void:
                return
            mine = bool(set((dict(attrs).get("class") or "").split()) & set(classes))
            self.open.append((tag, mine))
            self.inside += mine
            if self.inside and tag in blocks:
                self.flush()
            if tag in ("code", "pre"):
                if self.inside and not self.code:
                    self.text.append("\x00")
                self.code += 1

        def handle_endtag(self, tag):
            while self.open:
                name, mine = self.open.pop()
                self.code -= name in ("code", "pre")
                if self.inside and name in blocks:
                    self.flush()
                self.inside -= mine
                if name == tag:
                    break

        def handle_data(self, data):
            if self.inside and not self.code:
                self.text.append(data)

    Reader().feed(page_html)
    return lines


@functools.lru_cache(maxsize=1)
def template_words() -> frozenset[str]:
    """The English words of kb's interface templates that no Chinese translation of them keeps
    (“cores”, “pinned”, “backend”, “ok”): names that stay (jax, Python, CPU) are in both."""
    import polib

    from kb.translations import catalogue_path, interface_messages

    def words(text: str) -> set[str]:
        return {w.lower() for w in re.findall(r"[A-Za-z]{2,}", re.sub(r"\{[^}]*\}", " ", text))}

    kept = {w for e in polib.pofile(str(catalogue_path("zh_CN"))) for w in words(e.msgstr)}
    return frozenset(w for msgid in interface_messages() for w in words(msgid) - kept)


def generated_problems(line: str) -> list[str]:
    """What a line that kb generated into a Chinese page must not show.

    >>> for p in generated_problems("同一个程序在另一台机器上（Linux x86_64, 13 CPU cores；jax 0.10.2（本站固定版本为 0.12.0.1））"):
    ...     print(p)
    half-width ',' in a Chinese line: 同一个程序在另一台机器上（Linux x86_64, 13 CPU cores；jax 0.10.2（本站固定版本为 0.12.0.1））
    brackets inside brackets: 同一个程序在另一台机器上（Linux x86_64, 13 CPU cores；jax 0.10.2（本站固定版本为 0.12.0.1））
    English 'cores' in a Chinese line: 同一个程序在另一台机器上（Linux x86_64, 13 CPU cores；jax 0.10.2（本站固定版本为 0.12.0.1））
    >>> generated_problems("机器：TPU v5e，x86_64 Linux，13 核 CPU；版本：jax 0.10.2（本站固定版本为 0.12.0.1）；因版本不同而失败：\\x00 \\x00")
    []
    >>> generated_problems("Executed at build time with Python 3.12.1, on CPU ×1 (Linux x86_64, 2 cores)")  # not Chinese
    []
    """
    if not CJK.search(line):
        return []
    shown = line.replace("\x00", "`…`")
    prose = line.replace("\x00", "\u2026")
    found = [f"{problem} in a generated line" for problem in interface_problems(prose)
             if not problem.startswith("half-width")]
    found += [f"half-width {mark!r} in a Chinese line: {shown}" for mark in dict.fromkeys(re.findall(r"[,;:()!?]", prose))]
    depth = deepest = 0
    for mark in re.findall(r"[（）]", prose):
        depth = max(depth + (1 if mark == "（" else -1), 0)
        deepest = max(deepest, depth)
    if deepest > 1:
        found.append(f"brackets inside brackets: {shown}")
    words = (w.lower() for w in re.findall(r"[A-Za-z][\w.+-]*", prose) if not re.search(r"[_.\d]", w))  # not a file name
    found += [f"English {word!r} in a Chinese line: {shown}" for word in dict.fromkeys(words) if word in template_words()]
    return found


def built_page_problems(site: Path = HTML, languages: tuple[str, ...] = LANGUAGES) -> list[str]:
    """``generated_problems`` of every built page of ``languages`` (the Chinese ones), by page."""
    classes = generated_classes()
    problems = []
    for language in languages:
        for page in built_pages(site, language):
            for line in generated_lines(page.read_text(encoding="utf-8"), classes):
                problems += [f"{page.relative_to(site)}: {problem}" for problem in generated_problems(line)]
    return problems


if __name__ == "__main__" and sys.argv[1:] == ["--built"]:
    problems = built_page_problems()
    print("\n".join(problems) or f"generated text of the built pages ({', '.join(LANGUAGES)}): no problem")
elif __name__ == "__main__":
    paths = [Path(p).resolve() for p in sys.argv[1:]] or page_catalogues()
    print(report(paths))
    for path in paths:
        for problem in catalogue_problems(path):
            print(f"{path.relative_to(ROOT)}: {problem}")
