"""Every snippet is a complete program: it runs alone, as copied, and checks its claims."""

from __future__ import annotations

import ast
import os
import subprocess
import sys

import pytest

from tools.site import ROOT, SNIPPETS

SNIPPET_FILES = sorted(SNIPPETS.rglob("*.py"))
# JAX, Flax and optax deprecations (and everyone else's) fail the run.
WARNINGS_AS_ERRORS = ["-W", "error::DeprecationWarning", "-W", "error::FutureWarning",
                      "-W", "error::PendingDeprecationWarning"]


def test_there_are_snippets():
    assert SNIPPET_FILES, f"no snippets under {SNIPPETS}"


@pytest.mark.parametrize("path", SNIPPET_FILES, ids=lambda p: str(p.relative_to(SNIPPETS)))
def test_snippet_runs_standalone(path, tmp_path):
    # A reader's shell: none of the build's settings (no emulated devices unless the snippet
    # sets them itself), a fresh process, an empty working directory.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JAX_", "XLA_", "KB_"))}
    result = subprocess.run(
        [sys.executable, *WARNINGS_AS_ERRORS, str(path)],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600,
    )
    where = path.relative_to(ROOT)
    assert result.returncode == 0, f"{where} failed:\n{result.stderr[-4000:]}"
    assert not result.stderr.strip(), f"{where} wrote to stderr (a warning?):\n{result.stderr[-4000:]}"
    assert result.stdout.strip(), f"{where} printed nothing; a snippet prints what its page discusses"


@pytest.mark.parametrize("path", SNIPPET_FILES, ids=lambda p: str(p.relative_to(SNIPPETS)))
def test_snippet_shape(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    where = path.relative_to(ROOT)
    doc = ast.get_docstring(tree)
    assert doc and doc.strip(), f"{where}: first line must be a docstring saying what it shows"
    asserts = [n for n in ast.walk(tree) if isinstance(n, ast.Assert)]
    assert asserts, f"{where}: no assert; a snippet asserts the claims its page makes"
    trivial = [n for n in asserts if isinstance(n.test, ast.Constant)]
    assert not trivial, f"{where}:{trivial[0].lineno}: an assert of a constant cannot fail"
    seeds = [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr in ("seed",)
             and isinstance(n.value, ast.Name) and n.value.id in ("np", "numpy")]
    assert not seeds, f"{where}: use explicit generators/keys, not numpy's global seed"
