"""kb.failures: a page that fails to execute fails the build, naming page, snippet and line.

1. MyST-NB alone reports only the page ("Executing notebook failed: CellExecutionError"). For a
   cell that raised, failed an ``assert`` or was killed at the cell timeout, kb reads the executed
   notebook MyST-NB wrote, finds the failing cell, maps it back to its ``:load:`` snippet and to
   the line inside it, and logs one error: ``page core/jit failed to execute, in snippet
   snippets/core/jit_inline.py:7: AssertionError: ...``. The build's last error lists every page
   that failed.
2. A snippet that writes to stderr (a warning, above all a deprecation) fails the build too, with
   the snippet and the warning quoted, its kernel file name replaced by the snippet's path and line:
   ``snippet snippets/core/jit_x.py wrote to stderr: snippets/core/jit_x.py:3: FutureWarning: ...``.
   (MyST-NB's own report names only a cell number, so ``conf.py`` sets ``nb_output_stderr`` to
   ``remove`` and leaves the reporting to kb.)
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from sphinx.util import logging

from .common import PROBE_TAG, PageState, snippet_path
from .outputs import name_snippet

logger = logging.getLogger(__name__)

ANSI_RE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
FAILED = PageState("failed")


def describe_failure(
    cells: list[dict[str, Any]], exec_error: str | None, timeout: int
) -> tuple[int | None, int | None, str]:
    """Find the failing cell of an executed page.

    ``cells``: one dict per code cell in page order, with ``exec_count`` (None if it never
    finished), ``started`` (whether execution began) and ``traceback`` (text of an error output
    or None). Returns (index of the failing cell, line in that cell's snippet, reason).

    >>> describe_failure([{"exec_count": 1, "started": True, "traceback": None},
    ...                   {"exec_count": 2, "started": True,
    ...                    "traceback": "Cell In[2], line 7\\nAssertionError: loss differs"}],
    ...                  "CellExecutionError", 300)
    (1, 7, 'AssertionError: loss differs')
    >>> describe_failure([{"exec_count": 1, "started": True, "traceback": None},
    ...                   {"exec_count": None, "started": True, "traceback": None}],
    ...                  "CellTimeoutError", 5)
    (1, None, 'still running after the 5 s cell timeout; the kernel was stopped')
    >>> describe_failure([{"exec_count": None, "started": True,
    ...                    "traceback": "Cell In[1], line 5\\nKeyboardInterrupt: "}],
    ...                  "CellTimeoutError", 5)
    (0, 5, 'still running after the 5 s cell timeout; the kernel was stopped')
    """
    timed_out = bool(exec_error) and "Timeout" in exec_error
    timeout_reason = f"still running after the {timeout} s cell timeout; the kernel was stopped"
    for index, cell in enumerate(cells):
        tb = cell.get("traceback")
        if tb:
            tb = ANSI_RE.sub("", tb)
            lines = re.findall(rf"Cell In\[{cell['exec_count']}\], line (\d+)", tb)
            if not lines:
                lines = re.findall(r"Cell In\[\d+\], line (\d+)", tb)
            last = [ln for ln in tb.strip().splitlines() if ln.strip()]
            reason = last[-1].strip() if last else "error"
            if timed_out:  # nbclient interrupts the kernel: the traceback shows where it hung
                reason = timeout_reason
            return index, int(lines[-1]) if lines else None, reason
    for index, cell in enumerate(cells):
        if cell.get("exec_count") is None and cell.get("started", True):
            reason = timeout_reason if timed_out else f"did not finish ({exec_error or 'unknown error'})"
            return index, None, reason
    return None, None, exec_error or "unknown error"


def executed_cells(app, docname: str) -> list[dict[str, Any]]:
    """The code cells of a page's executed notebook (MyST-NB writes it after execution),
    each with its snippet, execution count, whether it started and its error text."""
    folder = Path(app.env.mystnb_config.output_folder)
    path = folder.joinpath(*(docname + ".ipynb").split("/"))
    if not path.is_file():
        return []
    notebook = json.loads(path.read_text(encoding="utf-8"))
    cells = []
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        meta = cell.get("metadata", {})
        timing = meta.get("execution", {})
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        stderr = "".join(_text(o) for o in cell.get("outputs", [])
                         if o.get("output_type") == "stream" and o.get("name") == "stderr")
        cells.append({
            "stderr": stderr,
            "load": meta.get("load"),
            "probe": PROBE_TAG in meta.get("tags", []),
            "exec_count": cell.get("execution_count"),
            "started": "iopub.execute_input" in timing,
            "traceback": "\n".join(errors[-1].get("traceback", [])) if errors else None,
        })
    return cells


def _text(output: dict[str, Any]) -> str:
    text = output.get("text", "")
    return "".join(text) if isinstance(text, list) else text


def quote_stderr(text: str, snippet: str, lines: int = 3) -> str:
    """The first lines of a cell's stderr, the kernel's file name replaced by the snippet's path.

    >>> quote_stderr("/tmp/ipykernel_77/2436.py:3: FutureWarning: old API\\n  warnings.warn(x)\\n",
    ...              "snippets/core/a.py")
    'snippets/core/a.py:3: FutureWarning: old API | warnings.warn(x)'
    """
    text = name_snippet(ANSI_RE.sub("", text), snippet)
    kept = [line.strip() for line in text.splitlines() if line.strip()][:lines]
    return " | ".join(kept)


def report_stderr(app, cells: list[dict[str, Any]]) -> None:
    env = app.env
    docname = env.docname
    for cell in cells:
        if cell["probe"] or not cell["stderr"].strip():
            continue
        snippet = snippet_path(app, cell["load"]) if cell["load"] else "(a cell without :load:)"
        logger.error(f"page {docname}: snippet {snippet} wrote to stderr (a warning fails the build: fix its "
                     f"cause rather than silencing it): {quote_stderr(cell['stderr'], snippet)}", location=docname)
        FAILED.set(env, docname, True)


def report_failure(app, cells: list[dict[str, Any]]) -> None:
    from myst_nb.sphinx_ import NbMetadataCollector

    env = app.env
    docname = env.docname
    exec_data = NbMetadataCollector.get_exec_data(env, docname)
    if not exec_data or exec_data.get("succeeded", True):
        return
    cells = [c for c in cells if not c["probe"]]
    index, line, reason = describe_failure(cells, exec_data.get("error"), app.config.nb_execution_timeout)
    found = snippet_path(app, cells[index]["load"]) if index is not None and cells[index]["load"] else None
    snippet = found + (f":{line}" if line else "") if found else "(the cell could not be identified)"
    logger.error(f"page {docname} failed to execute, in snippet {snippet}: {reason}", location=docname)
    FAILED.set(env, docname, True)


def report(app, doctree) -> None:
    """1 and 2, from one read of the page's executed notebook."""
    cells = executed_cells(app, app.env.docname)
    report_failure(app, cells)
    report_stderr(app, cells)


def summarise(app, exception) -> None:
    failed = sorted(FAILED.of(app.env))
    if exception is None and failed:
        # A closing summary; each failure was already logged as an error, which fails the build.
        logger.error("[kb] pages that failed to execute: " + ", ".join(failed))


def setup(app):
    FAILED.connect(app)
    app.connect("doctree-read", report)
    app.connect("build-finished", summarise)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
