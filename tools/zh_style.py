"""Counts that show where the Chinese still reads as translated (TRANSLATING.md, "Read as written in Chinese").

A native review of the catalogues in December 2026 measured these by
script; this module measures them the same way on every page catalogue, so that a pass over the
catalogues can be checked and a regression is caught by ``tests/test_zh_style.py``:

- ``heading_problems``: a "How ..." heading translated with 如何 or 怎么 (the site writes 怎样);
- ``word_problems``: renderings the glossary's notes rule out (本项目 for the pinned versions,
  批大小, 小批量, 中间值, 活跃区间, 错误报告, 导出 for a dump), and English words left in prose that
  the glossary gives a Chinese term for (checkpointer, tape, carry, pass, extra, rank);
- ``long_sentences``: sentences of more than ``LONG`` characters (as a reader sees them: code included, spaces and link targets not);
- ``rates``: 它/它们, standalone 一个, 被 and glosses per 1,000 CJK characters, and how many times
  a page repeats the "as the snippet asserts" aside.

Run ``python -m tools.zh_style [catalogue.po ...]`` for a table (default: every page catalogue).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .glossary import CODE_RE
from .site import DOCS, LOCALES, ROOT

CJK = re.compile(r"[\u3400-\u9fff]")
# Code and roles as the glossary checks see them, and link targets and addresses besides.
CODE = re.compile(CODE_RE.pattern + r"|\]\([^)]*\)|https?://\S+")
LONG = 110
# The question word of a "How ..." heading (TRANSLATING.md): 怎样.
HOW_HEADING = re.compile(r"^How\b")
OTHER_HOW = re.compile(r"如何|怎么")
# Renderings the glossary rules out, with the word to write instead.
RULED_OUT = {
    "本项目": "本站 (the site's pinned versions: 本站固定的)",
    "批大小": "批次大小",
    "小批量": "小批次",
    "中间值": "中间结果",
    "活跃区间": "存活区间",
    "错误报告": "问题报告",
    "页面顶部的信息框": "页首的信息框",
    "Explicit 轴": "显式轴",
    "Auto 轴": "自动轴",
    "Manual 轴": "手动轴",
}
# English words that the glossary renders in Chinese; they may stay only inside a gloss 中文（English）.
ENGLISH_WORDS = ("checkpointer", "manager", "tape", "carry", "pass", "extra", "rank", "fake", "treedef")
ASIDE = re.compile(r"代码片段[^。；]{0,12}断言")
IT = re.compile(r"它们?")
ONE = re.compile(r"(?<![同下另第单每这那哪任某])一个")


def _prose(text: str) -> str:
    return CODE.sub(" ", text)


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
    ["'本项目' in '本项目固定的 JAX 里，循环的 carry 和 `carry`。' (write 本站 (the site's pinned versions: 本站固定的))", "English 'carry' in '本项目固定的 JAX 里，循环的 carry 和 `carry`。'"]
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


def catalogue_problems(path: Path) -> list[str]:
    """Everything the checks above find in one page catalogue: what tests/test_zh_style.py rejects."""
    import polib

    entries = [e for e in polib.pofile(str(path)) if e.msgstr]
    md = DOCS / path.relative_to(LOCALES / "zh_CN" / "LC_MESSAGES").with_suffix(".md")
    found = heading_problems(entries, page_headings(md) if md.is_file() else set()) + word_problems(entries)
    return found + [f"a sentence of {length(s)} characters (more than {LONG}): {s[:60]}…" for s in long_sentences(entries)]


def page_catalogues(locales: Path = LOCALES / "zh_CN" / "LC_MESSAGES") -> list[Path]:
    return sorted(p for p in locales.rglob("*.po") if p.name != "sphinx.po")


def report(paths: list[Path]) -> str:
    import polib

    lines = ["| catalogue | CJK | 它/1000 | 一个/1000 | 被/1000 | glosses/1000 | asides | > 110 | headings | words |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for path in paths:
        entries = [e for e in polib.pofile(str(path)) if e.msgstr]
        md = DOCS / path.relative_to(LOCALES / "zh_CN" / "LC_MESSAGES").with_suffix(".md")
        headings = page_headings(md) if md.is_file() else set()
        r = rates(entries)
        lines.append(f"| {path.relative_to(LOCALES / 'zh_CN' / 'LC_MESSAGES')} | {r.cjk} | {r.per_thousand('它'):.1f} "
                     f"| {r.per_thousand('一个'):.1f} | {r.per_thousand('被'):.1f} | {r.per_thousand('gloss'):.2f} "
                     f"| {r.counts['aside']} | {len(long_sentences(entries))} "
                     f"| {len(heading_problems(entries, headings))} | {len(word_problems(entries))} |")
    return "\n".join(lines)


if __name__ == "__main__":
    paths = [Path(p).resolve() for p in sys.argv[1:]] or page_catalogues()
    print(report(paths))
    for path in paths:
        for problem in catalogue_problems(path):
            print(f"{path.relative_to(ROOT)}: {problem}")
