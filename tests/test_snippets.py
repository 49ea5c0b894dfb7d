"""Every snippet is a complete program: it ran alone, as copied, and checks its claims.

The build ran each snippet once, in a fresh process under a reader's conditions (kb.run.runner:
no build variables, an empty working directory, deprecation and future warnings as errors); these
tests read what that run left, its record (kb.run.store), instead of running the programs again."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from tools.search_eval import bare_error_names
from tools.site import ROOT, SNIPPETS, SOURCE_LANGUAGE

from kb.run.process import RUNNER, WARNINGS_AS_ERRORS  # noqa: E402 (tools.site: docs/_ext importable)
from kb.run.store import environment, read_record, record_key  # noqa: E402

SNIPPET_FILES = sorted(SNIPPETS.rglob("*.py"))


def test_there_are_snippets():
    assert SNIPPET_FILES, f"no snippets under {SNIPPETS}"


def test_the_runner_treats_deprecations_as_errors():
    flags = set(WARNINGS_AS_ERRORS[1::2])
    assert {"error::DeprecationWarning", "error::FutureWarning", "error::PendingDeprecationWarning"} <= flags


@pytest.fixture(scope="module")
def build_report(site):
    return json.loads((site / SOURCE_LANGUAGE / "_kb_build.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", SNIPPET_FILES, ids=lambda p: str(p.relative_to(SNIPPETS)))
def test_snippet_ran_alone_and_cleanly(path, build_report):
    """The record of this snippet's current bytes, made by this runner in this environment: it
    exited 0, wrote nothing to stderr (a warning would), printed something, and printed no error's
    name without its message (tools.search_eval: errors are searchable)."""
    name = path.relative_to(ROOT).as_posix()
    assert name in build_report["records"], f"{name} is on no page (every snippet is loaded by a page)"
    recorded = build_report["records"][name]
    record = read_record(Path(recorded))
    assert record is not None, f"{name}: no whole record at {recorded}; run `nox -s docs`"
    assert record["key"] == record_key(path.read_bytes(), environment(), RUNNER), f"{name}: record is stale"
    assert record["runner"] == RUNNER and record["lock"] == environment()["lock"]
    assert record["returncode"] == 0 and not record["timed_out"], f"{name} failed:\n{record['stderr'][-4000:]}"
    assert not record["stderr"].strip(), f"{name} wrote to stderr (a warning?):\n{record['stderr'][-4000:]}"
    assert record["stdout"].strip(), f"{name} printed nothing; a snippet prints what its page discusses"
    bare = bare_error_names(record["stdout"])
    assert not bare, (f"{name} prints {bare} without the message: print the first line a reader would see "
                      "and paste into search, f\"{type(err).__name__}: {str(err).splitlines()[0]}\"")


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
