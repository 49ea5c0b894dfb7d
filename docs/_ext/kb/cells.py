"""kb.cells: every code cell of a page loads a snippet, and the page depends on its snippets.

1. ``scan_code_cells(text)`` finds the top-level ``{code-cell}`` fences of a MyST notebook with
   their options, first and last line.
2. ``check_page(text, page, snippets_dir)`` is the rule, defined once (the build and
   ``tests/test_pages.py`` both call it): a cell must ``:load:`` an existing file under the
   snippets directory and hold no inline code. It returns the problems, each with its line; a
   missing file comes with the closest existing name ("did you mean jit_inline.py?").
3. When the page is read (``source-read``, before MyST-NB parses it) each problem is logged as an
   error at the page and line, and the offending cell is blanked out (its lines kept, so later line
   numbers stay right) so that MyST-NB does not stop the build with a traceback of its own.
4. The snippets a page loads become its dependencies: editing one snippet re-reads only the pages
   that load it (and ``kb.execution`` re-runs only that snippet).
5. Each good cell's ``:load:`` becomes an absolute path on the same line (``absolute_loads``), for
   the page reader ``kb.reader.read_page``: MyST-NB passes a custom reader the text alone, not
   the page's path, and the reader names each cell's snippet from the repository root.
6. ``page_snippets(srcdir, ...)``: every page's snippets, in page order, for the pages Sphinx
   finds (``kb.execution.site_jobs`` makes them jobs and runs them before any page is read).
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any, NamedTuple

from sphinx.util import logging

from .page import source_pages
from .run.plan import CODE_CELL_RE, FRONT_MATTER_RE, LOAD_RE, is_notebook, scan_code_cells  # noqa: F401 (Sphinx-free, in the run core)

logger = logging.getLogger(__name__)

class Problem(NamedTuple):
    line: int
    message: str


def _closest(path: Path) -> str:
    if not path.parent.is_dir():
        return ""
    names = sorted(p.name for p in path.parent.iterdir() if p.suffix == path.suffix)
    match = difflib.get_close_matches(path.name, names, n=1)
    return f"; did you mean {match[0]}?" if match else ""


def check_page(text: str, page: Path, snippets_dir: Path) -> tuple[list[Problem], list[Path]]:
    """The problems of a page's code cells, and the snippet files it loads.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> (root / "snippets" / "core").mkdir(parents=True)
    >>> _ = (root / "snippets" / "core" / "jit_inline.py").write_text("print(1)")
    >>> page = root / "docs" / "core" / "jit.md"
    >>> problems, loaded = check_page("```{code-cell} python\\n:load: ../../snippets/core/jit_inlin.py\\n```\\n"
    ...                               "```{code-cell} python\\n:load: ../../snippets/core/jit_inline.py\\n```\\n",
    ...                               page, root / "snippets")
    >>> problems
    [Problem(line=1, message="':load: ../../snippets/core/jit_inlin.py' does not exist; did you mean jit_inline.py?")]
    >>> [p.name for p in loaded]
    ['jit_inline.py']
    """
    snippets_dir = snippets_dir.resolve()
    problems: list[Problem] = []
    loaded: list[Path] = []
    for cell in scan_code_cells(text):
        target = cell["options"].get("load")
        if cell["inline"] or not target:
            problems.append(Problem(cell["line"], (
                f"code cell without ':load:'. Every code cell loads its code from a runnable file under "
                f"{snippets_dir.name}/, e.g. ':load: ../../snippets/<section>/<name>.py'; inline code is not allowed.")))
            continue
        path = (page.parent / target).resolve()
        if not path.is_relative_to(snippets_dir):
            problems.append(Problem(cell["line"], f"':load: {target}' is outside {snippets_dir}."))
        elif not path.is_file():
            problems.append(Problem(cell["line"], f"':load: {target}' does not exist{_closest(path)}"))
        else:
            loaded.append(path)
    return problems, loaded


def blank_lines(text: str, first: int, last: int) -> str:
    """``text`` with lines ``first``..``last`` (1-based, inclusive) emptied, line count kept.

    >>> blank_lines("a\\nb\\nc\\nd", 2, 3)
    'a\\n\\n\\nd'
    """
    lines = text.split("\n")
    for index in range(first - 1, min(last, len(lines))):
        lines[index] = ""
    return "\n".join(lines)


def absolute_loads(text: str, page: Path, cells: list[dict[str, Any]]) -> str:
    """``text`` with the ``:load:`` option of each of ``cells`` as an absolute path, lines kept.

    >>> text = "```{code-cell} python\\n:load: ../s/a.py\\n:tab: JAX\\n```\\n"
    >>> absolute_loads(text, Path("/r/docs/p.md"), scan_code_cells(text)).splitlines()[1]
    ':load: /r/s/a.py'
    """
    lines = text.split("\n")
    for cell in cells:
        for index in range(cell["line"], min(cell["end"], len(lines))):
            match = LOAD_RE.match(lines[index])
            if match and match.group(2) == cell["options"].get("load"):
                lines[index] = match.group(1) + str((page.parent / match.group(2)).resolve())
                break
    return "\n".join(lines)


def page_snippets(srcdir: Path, snippets_dir: Path, exclude_patterns, source_suffix) -> dict[str, list[Path]]:
    """Every notebook page's snippets (existing files only), in page order."""
    pages = {}
    for docname in source_pages(srcdir, exclude_patterns, source_suffix):
        path = srcdir / f"{docname}.md"
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        if is_notebook(text):
            pages[docname] = check_page(text, path, snippets_dir)[1]
    return pages


def on_source_read(app, docname: str, source: list[str]) -> None:
    text = source[0]
    if not is_notebook(text):
        return
    page = Path(app.env.doc2path(docname))
    snippets_dir = Path(app.srcdir) / app.config.kb_snippets_dir
    problems, loaded = check_page(text, page, snippets_dir)
    bad = {p.line for p in problems}
    for problem in problems:
        logger.error(f"{problem.message} (page {docname})", location=(docname, problem.line))
    cells = scan_code_cells(text)
    for cell in cells:
        if cell["line"] in bad:
            text = blank_lines(text, cell["line"], cell["end"])
    for path in loaded:
        app.env.note_dependency(path)
    source[0] = absolute_loads(text, page, [c for c in cells if c["line"] not in bad])


def setup(app):
    app.add_config_value("kb_snippets_dir", "../snippets", "env", types=[str])
    app.connect("source-read", on_source_read)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
