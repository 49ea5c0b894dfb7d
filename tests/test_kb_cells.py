"""Unit tests of kb.cells (the fixture builds test it end to end)."""

from __future__ import annotations

from pathlib import Path

from kb.cells import blank_lines
from kb.run.plan import check_page, scan_code_cells


def test_scan_code_cells_reads_yaml_options_and_longer_fences():
    text = (
        "---\nfile_format: mystnb\n---\n\n"
        "````{code-cell} python\n---\nload: ../../snippets/a.py\ntab: PyTorch\n---\n````\n\n"
        "```{code-cell} ipython3\n:load: ../../snippets/b.py\n\n```\n"
        "```python\nnot a cell\n```\n"
    )
    cells = scan_code_cells(text)
    assert [c["options"].get("load") for c in cells] == ["../../snippets/a.py", "../../snippets/b.py"]
    assert cells[0]["options"]["tab"] == "PyTorch"
    assert not any(c["inline"] for c in cells)


def _project(tmp_path: Path) -> tuple[Path, Path]:
    snippets = tmp_path / "snippets" / "core"
    snippets.mkdir(parents=True)
    (snippets / "jit_inline.py").write_text('"""x"""\nprint(1)\n')
    return tmp_path / "docs" / "core" / "jit.md", tmp_path / "snippets"


def test_check_page_names_each_problem_with_its_line(tmp_path):
    page, snippets = _project(tmp_path)
    (tmp_path / "docs" / "core").mkdir(parents=True)
    (tmp_path / "docs" / "core" / "here.py").write_text("print(1)\n")
    text = ("# Title\n\n"
            "```{code-cell} python\nprint('inline')\n```\n\n"        # line 3
            "```{code-cell} python\n:load: here.py\n```\n\n"          # line 7
            "```{code-cell} python\n:load: ../../snippets/core/jit_inline.py\n```\n")  # line 11: fine
    problems, loaded = check_page(text, page, snippets)
    assert [p.line for p in problems] == [3, 7]
    assert "without ':load:'" in problems[0].message and "is outside" in problems[1].message
    assert [p.name for p in loaded] == ["jit_inline.py"]


def test_check_page_suggests_nothing_when_no_name_is_close(tmp_path):
    page, snippets = _project(tmp_path)
    problems, _ = check_page("```{code-cell} python\n:load: ../../snippets/core/zzz.py\n```\n", page, snippets)
    assert [p.message for p in problems] == ["':load: ../../snippets/core/zzz.py' does not exist"]


def test_blanking_a_bad_cell_keeps_later_line_numbers():
    text = "a\n```{code-cell} python\n:load: nowhere.py\n```\nb"
    cell = scan_code_cells(text)[0]
    blanked = blank_lines(text, cell["line"], cell["end"])
    assert blanked.split("\n") == ["a", "", "", "", "b"] and not scan_code_cells(blanked)
