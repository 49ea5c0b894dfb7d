"""kb.page: a page's parts that several kb modules use, defined once.

1. The box near the top of a page that says how it was built: ``HEADER_CLASS`` marks it and
   ``header_box(doctree)`` finds it, or creates it right after the page title. Its lines fill
   named slots, ordered here and only here (``HEADER_SLOTS``: what the build ran with, the
   oldest releases the programs run on, each accelerator run, the downloads);
   ``put_in_header(doctree, slot, *lines)`` places lines in their slot whatever order the
   handlers of ``kb.provenance``, ``kb.floors``, ``kb.accelerator_status`` and ``kb.downloads`` run in.
2. ``code_cells(doctree)`` are a page's code cells; ``cell_options(cell)`` their options, where
   ``load`` names the cell's snippet from the repository root (``kb.reader.read_page``);
   ``page_relative(page, target)`` is a link from a page to a file of the output (downloads,
   images of the Markdown pages); ``ancestors(node)`` are a node's parents, nearest first.
   (Per-page facts such as what a page ran with live in the records, ``kb.run.store``, so no module
   keeps per-page state on the build environment any more.)
3. ``source_pages()``: the pages of a source tree, found exactly as Sphinx finds them (its own
   ``Project.discover`` with the site's ``exclude_patterns``); ``site_plan(srcdir, config)``: the
   build's plan (``kb.run.plan.site_plan`` of those pages: each page's snippets, each snippet's job
   and pages), read once per process, for every module that asks which programs a page shows;
   ``records_folder(srcdir, config)``: where the records are (``kb_records``).

The glossary's reader is ``kb.glossary``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from docutils import nodes

if TYPE_CHECKING:
    from .run.plan import Plan

HEADER_CLASS = "kb-header"
# The header box's lines, top to bottom: the only place that orders them.
HEADER_SLOTS = ("ran-with", "runs-on", "accelerators", "downloads")


# --------------------------------------------------------------------------------------------
# 1 + 2: the header box and code cells
# --------------------------------------------------------------------------------------------


def code_cells(doctree: nodes.Node) -> list[nodes.container]:
    """The code cells of a page (MyST-NB's ``cell_code`` containers)."""
    return [n for n in doctree.findall(nodes.container) if n.get("nb_element") == "cell_code"]


def cell_options(cell: nodes.Element) -> dict[str, Any]:
    """The options of a code cell: ``load`` (its snippet, ``snippets/core/jit_x.py``), ``tab``, ``tags``."""
    return cell.get("cell_metadata") or {}


def loaded_snippets(doctree: nodes.Node) -> list[str]:
    """The snippets a page's code cells load (``snippets/core/jit_x.py``), in page order, once each."""
    return [name for name in dict.fromkeys(cell_options(c).get("load") for c in code_cells(doctree)) if name]


def page_relative(pagename: str, target: str) -> str:
    """``target`` (a path from the output's root) as a link from page ``pagename``.

    >>> page_relative("core/jit", "_kb/notebooks/core/jit.ipynb"), page_relative("index", "_images/a.svg")
    ('../_kb/notebooks/core/jit.ipynb', '_images/a.svg')
    """
    return "../" * pagename.count("/") + target


def ancestors(node: nodes.Node) -> Iterable[nodes.Node]:
    """The parents of ``node``, nearest first."""
    node = node.parent
    while node is not None:
        yield node
        node = node.parent


def in_header_box(node: nodes.Node) -> bool:
    """Whether ``node`` lies anywhere inside the header box (the folded downloads list included)."""
    return any(HEADER_CLASS in parent.get("classes", []) for parent in ancestors(node))


def header_box(doctree: nodes.document, create: bool = True) -> nodes.container | None:
    """The page's header box; made after the first title when ``create`` and there is none.

    >>> from docutils.utils import new_document
    >>> from docutils.frontend import get_default_settings
    >>> from docutils.parsers.rst import Parser
    >>> doc = new_document("page", get_default_settings(Parser))
    >>> section = nodes.section("", nodes.title("", "Title"), nodes.paragraph("", "Text."))
    >>> doc += section
    >>> header_box(doc, create=False) is None
    True
    >>> box = header_box(doc)
    >>> [type(n).__name__ for n in section.children], header_box(doc) is box
    (['title', 'container', 'paragraph'], True)
    """
    for node in doctree.findall(nodes.container):
        if HEADER_CLASS in node.get("classes", []):
            return node
    if not create:
        return None
    box = nodes.container(classes=[HEADER_CLASS])
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is None:
        doctree.insert(0, box)
    else:
        section.insert(1 if section.children and isinstance(section[0], nodes.title) else 0, box)
    return box


def put_in_header(doctree: nodes.document, slot: str, *lines: nodes.Element) -> None:
    """Put ``lines`` into the header box's ``slot`` (one of ``HEADER_SLOTS``), after the lines
    already in that slot and before those of every later slot.

    >>> from docutils.utils import new_document
    >>> from docutils.frontend import get_default_settings
    >>> from docutils.parsers.rst import Parser
    >>> doc = new_document("page", get_default_settings(Parser))
    >>> doc += nodes.section("", nodes.title("", "Title"))
    >>> for slot, text in [("downloads", "d1"), ("downloads", "d2"), ("ran-with", "r"), ("accelerators", "a"),
    ...                    ("runs-on", "o")]:
    ...     put_in_header(doc, slot, nodes.paragraph("", text))
    >>> [line.astext() for line in header_box(doc)]
    ['r', 'o', 'a', 'd1', 'd2']
    >>> put_in_header(doc, "footer", nodes.paragraph())
    Traceback (most recent call last):
    ValueError: no header slot 'footer'; the slots are ran-with, runs-on, accelerators, downloads
    """
    if slot not in HEADER_SLOTS:
        raise ValueError(f"no header slot {slot!r}; the slots are {', '.join(HEADER_SLOTS)}")
    box = header_box(doctree)
    rank = HEADER_SLOTS.index(slot)
    at = next((i for i, line in enumerate(box.children) if HEADER_SLOTS.index(line.get("kb_slot", HEADER_SLOTS[-1])) > rank), len(box.children))
    for line in lines:
        line["kb_slot"] = slot
    box[at:at] = list(lines)


# --------------------------------------------------------------------------------------------
# 3: the pages of a source tree
# --------------------------------------------------------------------------------------------


def source_pages(srcdir: Path, exclude_patterns: Iterable[str], source_suffix: dict[str, str]) -> list[str]:
    """The page names (``core/jit``) of a source tree, as Sphinx itself discovers them."""
    from sphinx.project import Project

    return sorted(Project(srcdir, source_suffix).discover(list(exclude_patterns)))


def site_plan(srcdir: Path | str, config) -> "Plan":
    """The build's plan (3 above), from the pages Sphinx finds; read once per process."""
    return _plan(str(Path(srcdir).resolve()), config.kb_snippets_dir, tuple(config.exclude_patterns),
                 tuple(sorted(config.source_suffix.items())))


@lru_cache(maxsize=4)
def _plan(srcdir: str, snippets: str, exclude: tuple[str, ...], suffix: tuple) -> "Plan":
    from .run.plan import site_plan as plan

    return plan(Path(srcdir), source_pages(Path(srcdir), exclude, dict(suffix)), Path(srcdir) / snippets)


def records_folder(srcdir: Path | str, config) -> Path:
    """The records folder (``kb_records``, relative to the sources)."""
    return Path(srcdir, config.kb_records).resolve()
