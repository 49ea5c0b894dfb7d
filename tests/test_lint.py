"""The lint: ruff (pinned in requirements.txt; rules in pyproject.toml, [tool.ruff]) passes on every
Python file of the repository, `nox -s tests` (the README's and CI's test command) runs it before
the build, and the rules can fail: an undefined name or an unused import is found, and in
snippets/, checked only with the rules they already pass, a syntax error still is."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tools.site import ROOT

RUFF = shutil.which("ruff", path=str(Path(sys.executable).parent))


def ruff(folder: Path) -> subprocess.CompletedProcess:
    if RUFF is None:
        pytest.fail("ruff is missing from the environment (requirements.txt pins it)")
    return subprocess.run([RUFF, "check", "--no-cache", "--output-format", "concise", "."],
                          capture_output=True, text=True, cwd=folder)


def test_the_repository_passes_the_lint():
    result = ruff(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def calls(function: ast.FunctionDef) -> list[str]:
    """The names of the plain functions ``function`` calls, in the order of the source."""
    return [node.func.id for node in ast.walk(function)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)]


def test_the_tests_session_lints_before_it_builds():
    """Removing the lint from `nox -s tests` (or moving it after the build's minutes) fails here."""
    tree = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert "_lint" in calls(functions["lint"])
    tests = calls(functions["tests"])
    assert "_lint" in tests and "build_docs" in tests, tests
    assert tests.index("_lint") < tests.index("build_docs"), tests
    assert '"ruff"' in ast.unparse(functions["_lint"]).replace("'", '"')


def test_the_lint_finds_a_bug(tmp_path):
    """The check can fail: with the project's settings, an unused import and an undefined name are
    errors in tools/; in snippets/ an exec()'d name is allowed but a syntax error is not."""
    shutil.copyfile(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "bad.py").write_text("import os\n\n\ndef f():\n    return undefined_name\n", encoding="utf-8")
    (tmp_path / "snippets" / "sec").mkdir(parents=True)
    (tmp_path / "snippets" / "sec" / "ok.py").write_text('import jax\nexec("g = 1")\nprint(g)\n', encoding="utf-8")
    result = ruff(tmp_path)
    assert result.returncode != 0
    assert "tools/bad.py:1:8: F401" in result.stdout and "tools/bad.py:5:12: F821" in result.stdout, result.stdout
    assert "snippets" not in result.stdout, result.stdout
    (tmp_path / "snippets" / "sec" / "broken.py").write_text("print(1\n", encoding="utf-8")
    assert "snippets/sec/broken.py" in ruff(tmp_path).stdout
