"""kb.run.plan: which snippets each page loads, which pages load each snippet, one digest per snippet.

1. ``scan_code_cells(text)`` finds the top-level ``{code-cell}`` fences of a MyST notebook with
   their options, first and last line (``kb.cells`` checks and rewrites them when Sphinx reads a page).
2. ``check_page(text, page, snippets_dir)`` is the rule, defined once: a cell must ``:load:`` an
   existing file under the snippets directory and hold no inline code. It returns the problems,
   each with its line (a missing file comes with the closest existing name, "did you mean
   jit_inline.py?"), and the files the page loads.
3. ``site_plan(srcdir, pages)`` is the plan, the one answer to "which programs does the site run,
   and where are they shown": every notebook page's snippets (as ``check_page`` accepts them), in
   page order, as names from the repository root (``snippets/core/jit_x.py``); each snippet's job
   (``kb.run.runner.job``), once however many pages load it; and ``pages_of(name)``, the pages
   that load a snippet. ``pages`` is the caller's list of page names: the build passes the pages
   Sphinx finds (``kb.page.source_pages``, with ``exclude_patterns``), a machine with nothing but
   ``python3`` passes ``discover_pages(srcdir)``; ``tests/test_kb_plan.py`` holds the two equal
   for this site.
4. ``snippet_digest(path)``: the sha256 of a program's bytes, the one identity a machine report and
   a page compare (an edited program is not the one that ran).

Why our own code: the site's pages load programs with MyST-NB's ``:load:`` option, and this map is
the site's own; no Sphinx is needed to read it, so a TPU VM with only ``python3`` can name each
program's pages.
"""

from __future__ import annotations

import difflib
import hashlib
import re
from pathlib import Path
from typing import Any, Iterable, NamedTuple

from .runner import Job, job

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


class Plan(NamedTuple):
    """Every page's snippet names (page order) and each snippet's job (3 above)."""

    pages: dict[str, list[str]]
    jobs: dict[str, Job]

    def pages_of(self, name: str) -> list[str]:
        """The pages that load snippet ``name``, in page-name order."""
        return [page for page in sorted(self.pages) if name in self.pages[page]]


def site_plan(srcdir: Path, pages: Iterable[str] | None = None, snippets_dir: Path | None = None,
              precision: str | None = None) -> Plan:
    """The plan of the pages ``pages`` (default ``discover_pages(srcdir)``) under ``srcdir``, whose
    snippets are under ``snippets_dir`` (default: ``snippets/`` beside ``srcdir``); ``precision``
    keys the jobs for an emulated matmul precision (``nox -s precision``).

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> for folder in ("docs/core", "snippets/core"): (root / folder).mkdir(parents=True)
    >>> _ = (root / "snippets" / "core" / "a.py").write_text("print(1)")
    >>> front = "---\\nfile_format: mystnb\\n---\\n"
    >>> _ = (root / "docs" / "core" / "jit.md").write_text(front + "```{code-cell} python\\n:load: ../../snippets/core/a.py\\n```\\n")
    >>> _ = (root / "docs" / "index.md").write_text("# Home\\n")
    >>> plan = site_plan(root / "docs")
    >>> plan.pages, list(plan.jobs), plan.pages_of("snippets/core/a.py")
    ({'core/jit': ['snippets/core/a.py']}, ['snippets/core/a.py'], ['core/jit'])
    """
    srcdir = Path(srcdir).resolve()
    root = srcdir.parent
    snippets_dir = (snippets_dir or root / "snippets").resolve()
    plan = Plan({}, {})
    for docname in (discover_pages(srcdir) if pages is None else pages):
        path = srcdir / f"{docname}.md"
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        if not is_notebook(text):
            continue
        names = plan.pages[docname] = []
        for loaded in check_page(text, path, snippets_dir)[1]:
            name = loaded.relative_to(root).as_posix()
            if name not in plan.jobs:
                plan.jobs[name] = job(loaded, root, precision)
            if name not in names:
                names.append(name)
    return plan


def snippet_digest(path: Path) -> str:
    """The sha256 of a program's bytes (hex)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()
