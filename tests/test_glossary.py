"""The glossary (docs/_data/glossary.tsv) and the Chinese pages hold to TRANSLATING.md: one rendering per
term, glosses only where a reader would search the English, once per page, and never in titles,
table cells or See-also lines; the glossary page shows every term in one display format.
Each check is shown to fail on a small broken example first. The glossary's rendering, gloss and display
are Chinese: they are checked on the translations whose ``glossary`` in ``kb_languages`` is ``chinese``."""

from __future__ import annotations

import re

import polib
import pytest

from tools.catalogs import catalogs
from tools.glossary import (GLOSSARY, Term, cell_and_see_also_glosses, gloss_problems, glossary_problems, load,
                            rendering_problems, report)
from tools.site import DOCS, LOCALES, built_pages, languages_where

CHINESE = languages_where("glossary", "chinese")
PAGE_CATALOGUES = [p for language in CHINESE for p in catalogs(language) if p.name not in ("kb.po", "sphinx.po")
                   and not p.as_posix().endswith("reference/glossary.po")]


def test_the_checks_fail_on_broken_examples(tmp_path):
    bad = tmp_path / "glossary.tsv"
    bad.write_text("english\tchinese\tgloss\tdisplay\tnote\tsearch\n"
                   "replicated\t复制（副本）\tsometimes\t复制（副本；replicated (copy)）\t\t副本 / full copy\n"
                   "copy\t拷贝\tno\t拷贝（copy）\t\t副本 / 拷贝\n", encoding="utf-8")
    assert len(glossary_problems(bad)) == 7  # 4 in the first row's fields, 1 search word; 2 in the second
    terms = [Term("device", "设备", False, "设备（device）"), Term("sharding", "分片", True, "分片（sharding）"),
             Term("dispatch", "派发", False, "派发（dispatch）")]
    assert gloss_problems("p", ["设备（device）上的分片（sharding）", "又是分片（sharding）"], terms) == [
        "p: 'device' is glossed (an everyday word: write 设备 alone)",
        "p: 'sharding' is glossed 2 times (once, on first use)"]
    po = polib.POFile()
    po.append(polib.POEntry(msgid="Python dispatches each operation.", msgstr="Python 逐个分派每个操作。"))
    assert rendering_problems(po, terms) == ["'dispatch' → 派发, not found in 'Python 逐个分派每个操作。'"]
    po[0].tcomment = "kb-glossary: dispatch: an example of an accepted exception"
    assert rendering_problems(po, terms) == []
    page = ('<article><table><tr><td>分片（sharding）</td></tr></table>'
            '<section id="see-also"><h2>另请参阅</h2><ul><li><p>设备（device）</p></li></ul></section></article>')
    assert cell_and_see_also_glosses(page) == ["cell: 分片（sharding）", "see also: 设备（device）"]


def test_glossary_file_is_well_formed():
    assert not glossary_problems(GLOSSARY)
    assert len(load()) >= 100


@pytest.mark.parametrize("language", CHINESE)
def test_glossary_page_shows_each_term_in_its_display_form(language):
    """Every term of the glossary page is a glossary row, and its translation is the row's display."""
    terms = {t.english: t for t in load()}
    page = (DOCS / "reference" / "glossary.md").read_text(encoding="utf-8")
    # The directive's fence is longer than those of the examples inside its definitions (kb.examples).
    block = re.search(r"^(`{3,})\{glossary\}\n(.*?)^\1$", page, re.M | re.S).group(2)
    page_terms = [line for line in block.splitlines() if line and not line.startswith((" ", ":"))]
    assert len(page_terms) > 50
    missing = [t for t in page_terms if t not in terms]
    assert not missing, f"glossary page terms with no row in {GLOSSARY.name}: {missing}"
    catalogue = polib.pofile(str(LOCALES / language / "LC_MESSAGES" / "reference" / "glossary.po"))
    wrong = [f"{t}: {catalogue.find(t).msgstr if catalogue.find(t) else None!r} ≠ {terms[t].display!r}"
             for t in page_terms if catalogue.find(t) is None or catalogue.find(t).msgstr != terms[t].display]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("catalogue", PAGE_CATALOGUES, ids=lambda p: p.relative_to(LOCALES).as_posix())
def test_one_rendering_per_term_and_sparing_glosses(catalogue):
    problems = report([catalogue])
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", CHINESE)
def test_no_gloss_in_table_cells_or_see_also_lines(site, language):
    problems = [f"{page.relative_to(site)}: {found}" for page in built_pages(site, language)
                if "reference/glossary" not in page.as_posix()
                for found in cell_and_see_also_glosses(page.read_text(encoding="utf-8"))]
    assert not problems, "\n".join(problems)
