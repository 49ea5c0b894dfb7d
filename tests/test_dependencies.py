"""Every module the site's own code, tests and snippets import is pinned in requirements.txt:
deptry (pinned) finds imports of packages that are missing or arrive only as another package's
dependency (its settings are in pyproject.toml, [tool.deptry])."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tools.site import ROOT

DEPTRY = shutil.which("deptry", path=str(Path(sys.executable).parent))


def deptry(folder: Path) -> subprocess.CompletedProcess:
    if DEPTRY is None:
        pytest.fail("deptry is missing from the environment (requirements.txt pins it)")
    return subprocess.run([DEPTRY, "--no-ansi", "."], capture_output=True, text=True, cwd=folder)


def test_every_imported_package_is_pinned():
    result = deptry(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_an_import_that_only_arrives_with_another_package_is_found(tmp_path):
    """The check can fail: drop absl-py's pin, and the checkpoint snippets' `import absl` is named."""
    shutil.copyfile(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    pins = (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
    (tmp_path / "requirements.txt").write_text("\n".join(p for p in pins if not p.startswith("absl-py")) + "\n",
                                               encoding="utf-8")
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets" / "ckpt.py").write_text('"""Uses absl."""\nfrom absl import logging\n', encoding="utf-8")
    result = deptry(tmp_path)
    assert result.returncode != 0
    assert "DEP003 'absl' imported but it is a transitive dependency" in result.stderr, result.stderr
