"""Unit tests of kb.execution (the fixture builds test the no-execution rule end to end)."""

from __future__ import annotations

from kb import execution


def test_execution_hook_wraps_myst_nb():
    """kb wraps the function MyST-NB 1.4 calls to execute a notebook; if an upgrade renames it,
    timing and the no-execution rule of the translated builds would silently stop."""
    from myst_nb.core.execute import cache as nb_cache

    execution.install_execution_hook()
    assert getattr(nb_cache.single_nb_execution, "_kb_wrapped", False)
    wrapped = nb_cache.single_nb_execution
    execution.install_execution_hook()  # idempotent: never wrapped twice
    assert nb_cache.single_nb_execution is wrapped
