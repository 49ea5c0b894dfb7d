"""kb.tabs: adjacent code cells that carry ``:tab: <label>`` become one synced tab set.

MyST-NB does not execute cells nested inside directives, so a PyTorch/JAX pair cannot be written
inside sphinx-design's ``tab-set``: the cells stay top level in the page, and kb groups each run
of adjacent tabbed cells into a sphinx-design tab set after reading (synced across the page by
label: choosing "JAX" once shows JAX everywhere). A run with fewer than two cells, or with a
label twice, is left alone with a warning (which fails the build).

The handler runs before sphinx-design's own ``doctree-read`` handlers (priority 400 < 500), which
must see the tab sets.
"""

from __future__ import annotations

import re
from typing import Iterable

from docutils import nodes
from sphinx.util import logging

from .page import cell_options

logger = logging.getLogger(__name__)
PRIORITY = 400  # before sphinx-design (500)


def _tab(node: nodes.Node) -> str | None:
    if isinstance(node, nodes.container) and node.get("nb_element") == "cell_code":
        return cell_options(node).get("tab")
    return None


def tab_groups(children: Iterable[nodes.Node]) -> list[list[nodes.container]]:
    """Runs of adjacent code cells (siblings) that carry a ``tab`` label."""
    groups: list[list[nodes.container]] = []
    current: list[nodes.container] = []
    for child in children:
        if _tab(child):
            current.append(child)
            continue
        if isinstance(child, (nodes.comment, nodes.target)) and current:
            continue
        if current:
            groups.append(current)
        current = []
    if current:
        groups.append(current)
    return groups


def _slug(label: str) -> str:
    """
    >>> _slug("PyTorch"), _slug("JAX + Flax")
    ('pytorch', 'jax-flax')
    """
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-") or "tab"


def make_tabs(app, doctree: nodes.document) -> None:
    from sphinx_design.shared import create_component

    for parent in list(doctree.findall(nodes.Element)):
        for group in tab_groups(list(parent.children)):
            labels = [str(_tab(c)) for c in group]
            if len(group) < 2 or len(set(labels)) != len(labels):
                logger.warning(f"a ':tab:' group needs two or more cells with different labels, got {labels}",
                               location=group[0])
                continue
            tab_set = create_component("tab-set", classes=["sd-tab-set", "kb-tabs"])
            tab_set.source, tab_set.line = group[0].source, group[0].line
            position = parent.index(group[0])
            for cell, label in zip(group, labels):
                item = create_component("tab-item", classes=["sd-tab-item"], selected=False)
                title = nodes.rubric(label, label, classes=["sd-tab-label"])
                title["sync_id"] = _slug(label)
                title["sync_group"] = "framework"
                item += title
                content = create_component("tab-content", classes=["sd-tab-content"])
                parent.remove(cell)
                content += cell
                item += content
                tab_set += item
            parent.insert(position, tab_set)


def setup(app):
    app.connect("doctree-read", make_tabs, priority=PRIORITY)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
