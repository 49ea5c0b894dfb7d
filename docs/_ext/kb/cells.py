"""kb.cells: every code cell of a page loads a snippet, and the page depends on its snippets.

1. The rule is ``kb.run.plan.check_page``, defined once (the build's plan, this check and
   ``tests/test_pages.py`` call it): a cell must ``:load:`` an existing file under the snippets
   directory and hold no inline code; it returns the problems, each with its line.
2. When the page is read (``source-read``, before MyST-NB parses it) each problem is logged as an
   error at the page and line, and the offending cell is blanked out (its lines kept, so later line
   numbers stay right) so that MyST-NB does not stop the build with a traceback of its own.
3. The snippets a page loads become its dependencies: editing one snippet re-reads only the pages
   that load it (and ``kb.execution`` re-runs only that snippet).
4. Each good cell's ``:load:`` becomes an absolute path on the same line (``absolute_loads``), for
   the page reader ``kb.reader.read_page``: MyST-NB passes a custom reader the text alone, not
   the page's path, and the reader names each cell's snippet from the repository root.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sphinx.util import logging

from .run.plan import LOAD_RE, check_page, is_notebook, scan_code_cells

logger = logging.getLogger(__name__)


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
