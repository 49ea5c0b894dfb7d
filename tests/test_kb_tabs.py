"""Unit tests of kb.tabs (the fixture builds check the tab set in the built page)."""

from __future__ import annotations

from docutils import nodes

from kb.tabs import tab_groups


def _cell(tab=None):
    meta = {"tab": tab} if tab else {}
    return nodes.container(nb_element="cell_code", cell_metadata=meta)


def test_tab_groups_are_runs_of_adjacent_tabbed_cells():
    a, b, plain, c, d = _cell("PyTorch"), _cell("JAX"), _cell(), _cell("PyTorch"), _cell("JAX")
    groups = tab_groups([a, b, nodes.paragraph(), plain, c, nodes.target(), d])
    assert groups == [[a, b], [c, d]]
