"""kb.common: what several kb modules share, defined once.

1. The box near the top of a page that says how it was built: ``BOX_CLASS`` marks it and
   ``header_box(doctree)`` finds it, or creates it right after the page title. The provenance
   line and the downloads line both go into it, so neither depends on the other's handler having
   run first.
2. ``code_cells(doctree)`` are a page's code cells; ``cell_options(cell)`` their options, where
   ``load`` names the cell's snippet from the repository root (``kb.records.read_page``).
   (Per-page facts such as what a page ran with live in the records, ``kb.records``, so no module
   keeps per-page state on the build environment any more.)
3. ``source_pages()``: the pages of a source tree, found exactly as Sphinx finds them (its own
   ``Project.discover`` with the site's ``exclude_patterns``).
4. ``glossary_path()``: the project's glossary (``docs/_data/glossary.tsv``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from docutils import nodes

BOX_CLASS = "kb-provenance"


# --------------------------------------------------------------------------------------------
# 1 + 2: the header box and code cells
# --------------------------------------------------------------------------------------------


def code_cells(doctree: nodes.Node) -> list[nodes.container]:
    """The code cells of a page (MyST-NB's ``cell_code`` containers)."""
    return [n for n in doctree.findall(nodes.container) if n.get("nb_element") == "cell_code"]


def cell_options(cell: nodes.Element) -> dict[str, Any]:
    """The options of a code cell: ``load`` (its snippet, ``snippets/core/jit_x.py``), ``tab``, ``tags``."""
    return cell.get("cell_metadata") or {}


def ancestors(node: nodes.Node) -> Iterable[nodes.Node]:
    """The parents of ``node``, nearest first."""
    node = node.parent
    while node is not None:
        yield node
        node = node.parent


def in_header_box(node: nodes.Node) -> bool:
    """Whether ``node`` lies anywhere inside the header box (the folded downloads list included)."""
    return any(BOX_CLASS in parent.get("classes", []) for parent in ancestors(node))


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
        if BOX_CLASS in node.get("classes", []):
            return node
    if not create:
        return None
    box = nodes.container(classes=[BOX_CLASS])
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is None:
        doctree.insert(0, box)
    else:
        section.insert(1 if section.children and isinstance(section[0], nodes.title) else 0, box)
    return box


# --------------------------------------------------------------------------------------------
# 3 + 4: pages and the glossary
# --------------------------------------------------------------------------------------------


def source_pages(srcdir: Path, exclude_patterns: Iterable[str], source_suffix: dict[str, str]) -> list[str]:
    """The page names (``core/jit``) of a source tree, as Sphinx itself discovers them."""
    from sphinx.project import Project

    return sorted(Project(srcdir, source_suffix).discover(list(exclude_patterns)))


def glossary_path(root: Path) -> Path:
    """The project's glossary, docs/_data/glossary.tsv: the one source of its Chinese terms."""
    return root / "docs" / "_data" / "glossary.tsv"
