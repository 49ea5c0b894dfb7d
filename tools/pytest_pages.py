"""A pytest plugin for the pages' ``>>>`` examples (``--doctest-glob=*.md``, kb.examples), loaded
by ``-p tools.pytest_pages`` in pyproject.toml's ``addopts``.

A page's examples run as one doctest, in one process. A warning in an example fails it, as a
warning fails a snippet (CONTRIBUTING.md): a reader who types the lines would see it, and a
deprecated call would stop working in a later release. One warning is let through: torch 2.13's
forward-mode AD (``torch.func.jvp``, ``jacfwd``, ``hessian``) calls its own deprecated
``torch.jit.script`` once per process, which no code on a page can avoid
(``snippets/advanced/vjp_jvp_torch.py`` records the same warning).
"""

from __future__ import annotations

import pytest

WARNINGS = ("error", "ignore:`torch.jit.script` is deprecated:DeprecationWarning")


def pytest_collection_modifyitems(items):
    for item in items:
        if item.path.suffix == ".md":
            item.add_marker(pytest.mark.filterwarnings(*WARNINGS))
