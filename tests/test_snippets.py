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

from kb.run.process import RUNNER  # noqa: E402 (tools.site: docs/_ext importable)
from kb.run.store import environment, read_record, record_key  # noqa: E402

SNIPPET_FILES = sorted(SNIPPETS.rglob("*.py"))


def test_there_are_snippets():
    assert SNIPPET_FILES, f"no snippets under {SNIPPETS}"


@pytest.fixture(scope="module")
def build_report(site):
    return json.loads((site / SOURCE_LANGUAGE / "_kb_build.json").read_text(encoding="utf-8"))


def record_problems(path: Path, build_report: dict) -> list[str]:
    """What is wrong with the record the build rendered for the snippet at ``path`` (empty: nothing)."""
    name = path.relative_to(ROOT).as_posix()
    if name not in build_report["records"]:
        return [f"{name} is on no page (every snippet is loaded by a page)"]
    recorded = build_report["records"][name]
    record = read_record(Path(recorded))
    if record is None:
        return [f"{name}: no whole record at {recorded}; run `nox -s docs`"]
    problems = []
    if record["key"] != record_key(path.read_bytes(), environment(), RUNNER):
        problems.append(f"{name}: record is stale (the snippet or its environment changed since the build)")
    if record["runner"] != RUNNER or record["lock"] != environment()["lock"]:
        problems.append(f"{name}: recorded by another runner or lock file")
    if record["returncode"] != 0 or record["timed_out"]:
        problems.append(f"{name} failed:\n{record['stderr'][-4000:]}")
    if record["stderr"].strip():
        problems.append(f"{name} wrote to stderr (a warning?):\n{record['stderr'][-4000:]}")
    if not record["stdout"].strip():
        problems.append(f"{name} printed nothing; a snippet prints what its page discusses")
    bare = bare_error_names(record["stdout"])
    if bare:
        problems.append(f"{name} prints {bare} without the message: print the first line a reader would see "
                        "and paste into search, f\"{type(err).__name__}: {str(err).splitlines()[0]}\"")
    return problems


def test_every_snippet_ran_alone_and_cleanly(build_report):
    """One test for every snippet's record (architecture review F17: the build already fails on a
    failed, silent or warning run, so 528 tests repeating that said nothing; this one still
    catches what the build does not: a stale record, a snippet on no page, an error name printed
    without its message). Every problem is listed, not only the first."""
    problems = [line for path in SNIPPET_FILES for line in record_problems(path, build_report)]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


def shape_problems(path: Path, root: Path = ROOT) -> list[str]:
    """What breaks the shape of a snippet at ``path``, each as ``file:line: rule`` (empty: nothing).

    The rules: a docstring saying what it shows, at least one assert, no assert of a constant, no
    NumPy global seed."""
    where = path.relative_to(root).as_posix()
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except SyntaxError as err:
        return [f"{where}:{err.lineno}: does not parse: {err.msg}"]
    problems = []
    doc = ast.get_docstring(tree)
    if not (doc and doc.strip()):
        problems.append(f"{where}:1: first line must be a docstring saying what it shows")
    asserts = [n for n in ast.walk(tree) if isinstance(n, ast.Assert)]
    if not asserts:
        problems.append(f"{where}:1: no assert; a snippet asserts the claims its page makes")
    problems += [f"{where}:{n.lineno}: an assert of a constant cannot fail"
                 for n in asserts if isinstance(n.test, ast.Constant)]
    problems += [f"{where}:{n.lineno}: use explicit generators/keys, not numpy's global seed"
                 for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "seed" and _is_numpy_random(n.value)]
    return problems


def _is_numpy_random(node: ast.expr) -> bool:
    """``np.random`` or ``numpy.random`` (whose ``seed`` is the global one)."""
    return (isinstance(node, ast.Attribute) and node.attr == "random"
            and isinstance(node.value, ast.Name) and node.value.id in ("np", "numpy"))


def test_every_snippet_has_a_docstring_and_asserts_that_can_fail():
    """One test for the shape of every snippet (architecture review A14): a docstring, at least
    one assert, no assert of a constant, no NumPy global seed. Every offender is listed."""
    problems = [line for path in SNIPPET_FILES for line in shape_problems(path)]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


def test_the_shape_check_names_each_rule_and_line(tmp_path):
    """The shape check lists every broken rule with its line, not only the first."""
    bad = tmp_path / "bad.py"
    bad.write_text("import numpy as np\nnp.random.seed(0)\n")
    assert shape_problems(bad, tmp_path) == ["bad.py:1: first line must be a docstring saying what it shows",
                                             "bad.py:1: no assert; a snippet asserts the claims its page makes",
                                             "bad.py:2: use explicit generators/keys, not numpy's global seed"]
    trivial = tmp_path / "trivial.py"
    trivial.write_text('"""Shows x."""\nassert True\nassert 1 + 1 == 2\n')
    assert shape_problems(trivial, tmp_path) == ["trivial.py:2: an assert of a constant cannot fail"]
    keyed = tmp_path / "keyed.py"
    keyed.write_text('"""Shows x."""\nimport numpy as np\nrng = np.random.default_rng(0)\nassert rng.random() < 1\n')
    assert shape_problems(keyed, tmp_path) == []
