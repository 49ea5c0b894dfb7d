"""kb.run.plan: which snippets each page loads, which pages load each snippet, one digest per snippet.

1. ``scan_code_cells(text)`` finds the top-level ``{code-cell}`` fences of a MyST notebook with
   their options, first and last line (``kb.cells`` checks and rewrites them when Sphinx reads a page).
2. ``page_loads(srcdir, pages)``: every page's snippets, in page order, as names from the repository
   root (``snippets/core/jit_x.py``); ``pages`` is the caller's list of page names (the build passes
   the pages Sphinx discovered), or every ``.md`` page under ``srcdir`` outside folders whose name
   starts with ``_`` and outside ``locales`` (a machine with nothing but ``python3``).
3. ``pages_of(loads)``: the inverse map, each snippet's pages in page-name order.
4. ``snippet_digest(path)``: the sha256 of a program's bytes, the one identity a machine report and
   a page compare (an edited program is not the one that ran).

Why our own code: the site's pages load programs with MyST-NB's ``:load:`` option, and this map is
the site's own; no Sphinx is needed to read it, so a TPU VM with only ``python3`` can name each
program's pages.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Any, Iterable

FRONT_MATTER_RE = re.compile(r"\A---\n.*?\n---\n", re.S)
CODE_CELL_RE = re.compile(r"^(`{3,}|~{3,})\{code-cell\}")
LOAD_RE = re.compile(r"^(\s*:?load:\s*)(\S.*?)\s*$")


def scan_code_cells(text: str) -> list[dict[str, Any]]:
    """Find the top-level ``{code-cell}`` fences of a MyST notebook and their options.

    >>> cells = scan_code_cells("---\\nfile_format: mystnb\\n---\\n"
    ...     "```{code-cell} python\\n:load: ../../snippets/a.py\\n:tab: JAX\\n```\\n"
    ...     "```{code-cell} python\\nprint(1)\\n```\\n")
    >>> [(c["line"], c["end"], c["options"].get("load"), c["inline"]) for c in cells]
    [(4, 7, '../../snippets/a.py', False), (8, 10, None, True)]
    """
    cells = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = CODE_CELL_RE.match(lines[i])
        if not m:
            i += 1
            continue
        fence = m.group(1)
        start = i
        i += 1
        options: dict[str, str] = {}
        body: list[str] = []
        in_yaml = False
        closing = re.compile(rf"{re.escape(fence[0])}{{{len(fence)},}}\s*")
        while i < len(lines) and not closing.fullmatch(lines[i]):
            line = lines[i]
            if not body and line.strip() == "---":
                in_yaml = not in_yaml
            elif in_yaml or (not body and line.startswith(":")):
                key, _, value = line.lstrip(":").partition(":")
                options[key.strip()] = value.strip()
            elif line.strip() or body:
                body.append(line)
            i += 1
        cells.append({"line": start + 1, "end": min(i + 1, len(lines)), "options": options,
                      "inline": any(b.strip() for b in body)})
        i += 1
    return cells


def is_notebook(text: str) -> bool:
    """Whether a page is a MyST notebook (its front matter names mystnb or jupytext)."""
    head = FRONT_MATTER_RE.match(text)
    return bool(head) and ("mystnb" in head.group(0) or "jupytext" in head.group(0))


def discover_pages(srcdir: Path) -> list[str]:
    """The page names of a source tree without Sphinx: every ``.md`` outside ``_*`` folders and ``locales``."""
    names = []
    for path in srcdir.rglob("*.md"):
        parts = path.relative_to(srcdir).parts
        if any(part.startswith(("_", ".")) or part == "locales" for part in parts[:-1]):
            continue
        names.append(path.relative_to(srcdir).with_suffix("").as_posix())
    return sorted(names)


def page_loads(srcdir: Path, pages: Iterable[str] | None = None) -> dict[str, list[str]]:
    """Each page's snippet names (from the repository root, ``srcdir``'s parent), in page order.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> (root / "docs" / "core").mkdir(parents=True)
    >>> _ = (root / "docs" / "core" / "jit.md").write_text("```{code-cell} python\\n:load: ../../snippets/core/a.py\\n```\\n")
    >>> _ = (root / "docs" / "index.md").write_text("# Home\\n")
    >>> loads = page_loads(root / "docs")
    >>> loads, pages_of(loads)
    ({'core/jit': ['snippets/core/a.py'], 'index': []}, {'snippets/core/a.py': ['core/jit']})
    """
    srcdir = Path(srcdir)
    root = srcdir.parent
    loads: dict[str, list[str]] = {}
    for docname in (discover_pages(srcdir) if pages is None else pages):
        page = srcdir / f"{docname}.md"
        if not page.is_file():
            continue
        names = []
        for cell in scan_code_cells(page.read_text(encoding="utf-8")):
            load = cell["options"].get("load")
            if load:
                path = (page.parent / load).resolve()
                name = Path(os.path.relpath(path, root.resolve())).as_posix()
                if name not in names:
                    names.append(name)
        loads[docname] = names
    return loads


def pages_of(loads: dict[str, list[str]]) -> dict[str, list[str]]:
    """Each snippet's pages, from ``page_loads``'s map."""
    found: dict[str, list[str]] = {}
    for docname in sorted(loads):
        for name in loads[docname]:
            found.setdefault(name, []).append(docname)
    return found


def snippet_digest(path: Path) -> str:
    """The sha256 of a program's bytes (hex)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()
