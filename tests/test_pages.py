"""Pages and snippets stay in step: every code cell loads a snippet, every snippet is shown."""

from __future__ import annotations

from kb.run.plan import check_page, is_notebook
from tools.site import DOCS, ROOT, SNIPPETS, source_pages

PAGES = [DOCS / f"{name}.md" for name in source_pages()]


def test_pages_are_found():
    assert DOCS / "index.md" in PAGES and len(PAGES) > 20


def test_every_code_cell_loads_an_existing_snippet():
    """The rule of kb.cells (the same function the build calls), over every page at once."""
    problems = []
    for page in PAGES:
        found, _ = check_page(page.read_text(encoding="utf-8"), page, SNIPPETS)
        problems += [f"{page.relative_to(ROOT)}:{p.line}: {p.message}" for p in found]
    assert not problems, "\n".join(problems)


def test_every_snippet_is_on_a_page():
    used = {p for page in PAGES for p in check_page(page.read_text(encoding="utf-8"), page, SNIPPETS)[1]}
    orphans = [str(p.relative_to(ROOT)) for p in sorted(SNIPPETS.rglob("*.py")) if p.resolve() not in used]
    assert not orphans, f"snippets no page shows (show them or delete them): {orphans}"


def test_pages_are_notebooks_when_they_have_code():
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        if check_page(text, page, SNIPPETS)[1]:
            assert is_notebook(text), f"{page.relative_to(ROOT)}: front matter must say file_format: mystnb"
