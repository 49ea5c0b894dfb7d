"""The project's glossary (``docs/_data/glossary.tsv``) and the checks that hold the Chinese pages to it.

Each row is one term: ``english``, its one Chinese rendering (``chinese``), whether a page glosses
it on first use (``gloss``: ``yes`` for terms a reader would search in English, ``no`` for everyday
words), the form shown on the glossary page and in the index (``display``), a ``note`` for
translators, and ``search``: other words a reader types for the term (colloquial Chinese such as
显存 or 多卡, PyTorch's or English names such as OOM), `` / `` between them, which the site's search
in both languages treats as the term (``kb.search``). ``TRANSLATING.md`` gives the rules these checks enforce:

- ``glossary_problems``: the file itself (fields, yes/no, one display format: 中文（English）, with
  an abbreviation first as in 全分片数据并行（FSDP，fully sharded data parallel）; no half-width
  brackets inside, no semicolons; a search word is one word, not the term itself, and belongs to
  one term only);
- ``gloss_problems``: a ``gloss: no`` term glossed on a page, a ``gloss: yes`` term glossed twice;
- ``rendering_problems``: an aligned msgid/msgstr pair whose English names a term and whose
  Chinese lacks the glossary's rendering (a translator comment ``kb-glossary: <english>: why``
  on the entry accepts a deliberate exception);
- ``cell_and_see_also_glosses``: a gloss in a table cell or a See-also line of a built page.
"""

from __future__ import annotations

import html as html_lib
import re
from dataclasses import dataclass
from pathlib import Path

from .site import ROOT

from kb.glossary import alternatives, glossary_rows  # noqa: E402

GLOSSARY = ROOT / "docs" / "_data" / "glossary.tsv"
FIELDS = ["english", "chinese", "gloss", "display", "note", "search"]
GLOSS_RE = re.compile(r"(?<=[\u3400-\u9fff])（([^（）\u3400-\u9fff]*[A-Za-z][^（）\u3400-\u9fff]*)）")
CODE_RE = re.compile(r"\{[a-z:]+\}`[^`]*`|`+[^`]+`+")
QUOTED_RE = re.compile(r'"[^"]*"')
EXCEPTION_RE = re.compile(r"kb-glossary:\s*([^:]+):")


@dataclass(frozen=True)
class Term:
    english: str
    chinese: str
    gloss: bool
    display: str
    note: str = ""
    search: tuple[str, ...] = ()

    def english_forms(self) -> list[str]:
        """The English words a page may use for the term: alternatives split, notes dropped.

        >>> Term("fully sharded data parallel (FSDP)", "全分片数据并行", True, "").english_forms()
        ['fully sharded data parallel', 'FSDP']
        >>> Term("flatten / unflatten", "展平 / 还原", False, "").english_forms()
        ['flatten', 'unflatten']
        """
        forms = []
        for part in self.english.split(" / "):
            inner = re.findall(r"\(([^)]*)\)", part)
            forms.append(" ".join(re.sub(r"\([^)]*\)", "", part).split()))
            forms += [f for f in inner if f.isupper() or f.islower() and " " not in f and f in ("vmap", "remat")]
        return [f.strip("`") for f in forms if f]

    def pairs(self) -> list[tuple[str, str]]:
        """(English, Chinese) for each alternative of a ``a / b`` term, else for every English form.

        >>> Term("flatten / unflatten", "展平 / 还原", False, "").pairs()
        [('flatten', '展平'), ('unflatten', '还原')]
        >>> Term("fully sharded data parallel (FSDP)", "全分片数据并行", True, "").pairs()  # not 'FSDP' alone
        [('fully sharded data parallel', '全分片数据并行')]
        """
        english, chinese = self.english.split(" / "), self.chinese.split(" / ")
        if len(english) == len(chinese) > 1:
            return [(Term(e, "", False, "").english_forms()[0], c) for e, c in zip(english, chinese)]
        return [(self.english_forms()[0], self.chinese)]


def load(path: Path = GLOSSARY) -> list[Term]:
    return [Term(r["english"], r["chinese"], r["gloss"] == "yes", r["display"], r["note"], tuple(alternatives(r["search"])))
            for r in glossary_rows(path)]


def glossary_problems(path: Path = GLOSSARY) -> list[str]:
    """What is wrong with the glossary file itself.

    >>> import tempfile
    >>> bad = Path(tempfile.mkdtemp()) / "g.tsv"
    >>> _ = bad.write_text("english\\tchinese\\tgloss\\tdisplay\\tnote\\tsearch\\n"
    ...                    "leaf\\t叶子（叶节点）\\tmaybe\\t叶节点（叶子；leaf (tree)）\\t\\tleaf node\\n", encoding="utf-8")
    >>> for p in glossary_problems(bad): print(p)
    leaf: the rendering '叶子（叶节点）' is not one term (no brackets)
    leaf: gloss is 'maybe', not yes or no
    leaf: display '叶节点（叶子；leaf (tree)）' must not carry half-width brackets or semicolons
    leaf: display '叶节点（叶子；leaf (tree)）' does not start with its rendering '叶子（叶节点）'
    leaf: search word 'leaf node' is not one word (search splits a query into words)
    """
    columns = path.read_text(encoding="utf-8").partition("\n")[0].rstrip("\r").split("\t")
    if columns != FIELDS:
        return [f"columns are {columns}, not {FIELDS}"]
    rows = glossary_rows(path)
    problems, seen, searched = [], set(), {}
    for row in rows:
        name, chinese, display = row["english"], row["chinese"], row["display"]
        if name in seen:
            problems.append(f"{name}: listed twice")
        seen.add(name)
        if re.search(r"[（）()；;]", chinese):
            problems.append(f"{name}: the rendering {chinese!r} is not one term (no brackets)")
        if row["gloss"] not in ("yes", "no"):
            problems.append(f"{name}: gloss is {row['gloss']!r}, not yes or no")
        inner = display[len(chinese):]
        if re.search(r"[()；;]", display) and not display.startswith("`"):
            problems.append(f"{name}: display {display!r} must not carry half-width brackets or semicolons")
        if not display.startswith(chinese):
            problems.append(f"{name}: display {display!r} does not start with its rendering {chinese!r}")
        elif inner and not re.fullmatch(r"（[^（）]+）", inner):
            problems.append(f"{name}: display {display!r} is not 中文（English）")
        for word in alternatives(row["search"]):
            if not re.fullmatch(r"\w+", word):
                problems.append(f"{name}: search word {word!r} is not one word (search splits a query into words)")
            if word.lower() in (name.lower(), chinese.lower()):
                problems.append(f"{name}: search word {word!r} is the term itself")
            if word.lower() in searched and searched[word.lower()] != name:
                problems.append(f"{name}: search word {word!r} also belongs to {searched[word.lower()]!r}")
            searched[word.lower()] = name
    return problems


def _english_re(form: str) -> re.Pattern:
    """The English form as a whole word, in any case, with or without a plural -s/-es."""
    return re.compile(rf"(?<![\w-]){re.escape(form)}(?:s|es)?(?![\w-])", re.I)


def _english_in(form: str, text: str) -> bool:
    return _english_re(form).search(text) is not None


def glosses(text: str) -> list[str]:
    """The English of each 中文（English） gloss in a translation.

    >>> glosses("把数组分片（sharding）到设备（device）上，见 `f`（x）。")
    ['sharding', 'device']
    """
    return [m.group(1) for m in GLOSS_RE.finditer(CODE_RE.sub("", text))]


def glossed_term(gloss: str, terms: list[Term]) -> Term | None:
    words = [w.strip() for w in re.split(r"[，,]", gloss)]
    for term in terms:
        forms = {f.lower() for f in term.english_forms()} | {term.english.lower()}
        # The display form's English counts too: 循环携带量（carry） glosses "loop carry".
        shown = re.search(r"（([^（）]*)）\s*$", getattr(term, "display", "") or "")
        if shown:
            forms |= {w.strip().lower() for w in re.split(r"[，,]", shown.group(1)) if w.strip()}
        if any(w.lower() in forms for w in words):
            return term
    return None


def gloss_problems(page: str, translations: list[str], terms: list[Term]) -> list[str]:
    """On one page: a ``gloss: no`` term glossed, or a ``gloss: yes`` term glossed more than once.

    >>> terms = [Term("device", "设备", False, ""), Term("sharding", "分片", True, "")]
    >>> gloss_problems("p", ["设备（device）上的分片（sharding）", "再次分片（sharding）"], terms)
    ["p: 'device' is glossed (an everyday word: write 设备 alone)", "p: 'sharding' is glossed 2 times (once, on first use)"]
    """
    counts: dict[str, int] = {}
    problems = []
    for text in translations:
        for gloss in glosses(text):
            term = glossed_term(gloss, terms)
            if term is None:
                continue
            if not term.gloss:
                problems.append(f"{page}: {term.english!r} is glossed (an everyday word: write {term.chinese} alone)")
            counts[term.english] = counts.get(term.english, 0) + 1
    problems += [f"{page}: {name!r} is glossed {n} times (once, on first use)"
                 for name, n in counts.items() if n > 1 and next(t for t in terms if t.english == name).gloss]
    return problems


def rendering_problems(entries, terms: list[Term]) -> list[str]:
    """Aligned entries (``msgid``, ``msgstr``, ``tcomment``) whose English names a glossary term
    and whose Chinese does not use the glossary's rendering.

    >>> from types import SimpleNamespace as E
    >>> terms = [Term("dispatch", "派发", False, ""), Term("pytree", "pytree", False, "")]
    >>> rendering_problems([E(msgid="Python dispatches each op.", msgstr="Python 逐个分派操作。", tcomment=""),
    ...                     E(msgid="Each `dispatch` call.", msgstr="每次调用。", tcomment=""),
    ...                     E(msgid="No dispatch here.", msgstr="这里不发送。", tcomment="kb-glossary: dispatch: 发送 here")],
    ...                    terms)
    ["'dispatch' → 派发, not found in 'Python 逐个分派操作。'"]

    A longer term stands for the shorter ones inside it: "memory profile" asks for 内存快照, not
    also for the 性能分析 of "profile".

    >>> rendering_problems([E(msgid="Save a memory profile.", msgstr="保存内存快照。", tcomment="")],
    ...                    [Term("profile", "性能分析", False, ""), Term("memory profile", "内存快照", False, "")])
    []
    """
    problems = []
    for entry in entries:
        if not entry.msgstr:
            continue
        target = CODE_RE.sub(" ", entry.msgstr)
        accepted = {m.strip().lower() for m in EXCEPTION_RE.findall(entry.tcomment or "")}
        for term, english, chinese in named_pairs(entry.msgid, terms):
            if english == chinese or chinese in target or term.english.lower() in accepted or term.chinese.startswith("`"):
                continue
            problems.append(f"{english!r} → {chinese}, not found in {entry.msgstr[:120]!r}")
    return problems


def named_pairs(english_text: str, terms: list[Term]) -> list[tuple[Term, str, str]]:
    """(term, English, Chinese) for each glossary term an English text names outside code and
    "quoted messages"; a longer term stands for the shorter ones inside it.

    >>> terms = [Term("mesh", "网格", True, ""), Term("device mesh", "设备网格", True, "")]
    >>> [english for _, english, _ in named_pairs("A device mesh, and one `mesh` more.", terms)]
    ['device mesh']
    """
    source = QUOTED_RE.sub(" ", CODE_RE.sub(" ", english_text))
    found = []
    for term in sorted(terms, key=lambda t: -max(len(english) for english, _ in t.pairs())):
        for english, chinese in term.pairs():
            if _english_in(english, source):
                found.append((term, english, chinese))
                source = _english_re(english).sub(" ", source)
    return found


# A unit in full-width brackets after its quantity, 内存带宽（GB/s）, 每步耗时（ms）: TRANSLATING.md's
# convention for figures and table headers, not an English gloss.
UNIT_RE = re.compile(r"（(?:[kKMGTPµun]i?)?(?:B|FLOPs?|FLOP|s|Hz)(?:/s)?）")


def cell_and_see_also_glosses(page_html: str) -> list[str]:
    """Table cells and See-also lines of a built page that carry a 中文（English） gloss (a unit,
    （TFLOP/s）, is not one).

    >>> cell_and_see_also_glosses('<article><table><tr><td>分片（sharding）</td><td><code>P</code>（x）</td>'
    ...     '<td>稠密峰值（TFLOP/s）</td><td>内存带宽（GB/s）</td></tr></table>'
    ...     '<section id="see-also"><h2>另请参阅</h2><ul><li><p>设备网格（mesh）</p></li></ul></section></article>')
    ['cell: 分片（sharding）', 'see also: 设备网格（mesh）']
    """
    found = []
    for kind, pattern in (("cell", r"<t[dh]\b[^>]*>(.*?)</t[dh]>"),
                          ("see also", r'<section id="see-also[^"]*">(.*?)</section>')):
        for match in re.finditer(pattern, page_html, re.S):
            parts = re.findall(r"<li\b[^>]*>(.*?)</li>", match.group(1), re.S) if kind == "see also" else [match.group(1)]
            for part in parts:
                part = re.sub(r"<code\b.*?</code>", "", part, flags=re.S)
                text = " ".join(html_lib.unescape(re.sub(r"<[^>]+>", "", part)).split())
                if GLOSS_RE.search(UNIT_RE.sub("", text)):
                    found.append(f"{kind}: {text}")
    return found


def report(paths: list[Path], terms: list[Term] | None = None) -> list[str]:
    """Every gloss and rendering problem of the given page catalogues (``.po``), one per line."""
    import polib

    terms = terms if terms is not None else load()
    problems = []
    for path in paths:
        catalog = polib.pofile(str(path))
        name = path.with_suffix("").as_posix().split("LC_MESSAGES/")[-1]
        problems += gloss_problems(name, [e.msgstr for e in catalog], terms)
        problems += [f"{name}: {p}" for p in rendering_problems(catalog, terms)]
    return problems


if __name__ == "__main__":  # python -m tools.glossary [catalogue.po ...]: what the tests will say
    import sys

    from .catalogs import catalogs
    from .site import languages_where

    chinese = languages_where("glossary", "chinese")  # the languages of the glossary's rendering
    chosen = [Path(p) for p in sys.argv[1:]] or [p for language in chinese for p in catalogs(language)
                                                 if p.parent.name != "LC_MESSAGES" or p.name == "index.po"]
    chosen = [p for p in chosen if not p.as_posix().endswith("reference/glossary.po")]
    found = glossary_problems() + report(chosen)
    print("\n".join(found) or "no problems")
    sys.exit(1 if found else 0)
