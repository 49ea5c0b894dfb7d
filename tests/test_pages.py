"""Pages and snippets stay in step: every code cell loads a snippet, every snippet is shown."""

from __future__ import annotations

from pathlib import Path

from kb_pipeline import scan_code_cells
from kbtools import DOCS, ROOT, SNIPPETS

PAGES = sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts and "locales" not in p.parts)


def loads() -> dict[Path, list[Path]]:
    found = {}
    for page in PAGES:
        cells = scan_code_cells(page.read_text(encoding="utf-8"))
        found[page] = [(page.parent / c["options"]["load"]).resolve() for c in cells if c["options"].get("load")]
    return found


def test_every_code_cell_loads_an_existing_snippet():
    problems = []
    for page in PAGES:
        for cell in scan_code_cells(page.read_text(encoding="utf-8")):
            where = f"{page.relative_to(ROOT)}:{cell['line']}"
            target = cell["options"].get("load")
            if cell["inline"] or not target:
                problems.append(f"{where}: code cell without :load:")
                continue
            path = (page.parent / target).resolve()
            if not path.is_relative_to(SNIPPETS) or not path.is_file():
                problems.append(f"{where}: :load: {target} is not a file under snippets/")
    assert not problems, "\n".join(problems)


def test_every_snippet_is_on_a_page():
    used = {p for paths in loads().values() for p in paths}
    orphans = [str(p.relative_to(ROOT)) for p in sorted(SNIPPETS.rglob("*.py")) if p.resolve() not in used]
    assert not orphans, f"snippets no page shows (show them or delete them): {orphans}"


def test_pages_are_notebooks_when_they_have_code():
    for page, paths in loads().items():
        if paths:
            head = page.read_text(encoding="utf-8").split("---")[1]
            assert "mystnb" in head, f"{page.relative_to(ROOT)}: front matter must say file_format: mystnb"
