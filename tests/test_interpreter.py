"""tools.interpreter: nox finds Python 3.12 past a failing pyenv shim, or says what to install."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from tools.interpreter import MISSING, NAME, candidates, find_python


def _shim(folder: Path) -> Path:
    """A pyenv shim with no 3.12 selected: it prints pyenv's complaint and fails."""
    folder.mkdir(parents=True)
    shim = folder / NAME
    shim.write_text(f"#!/bin/sh\necho 'pyenv: {NAME}: command not found' >&2\nexit 127\n")
    shim.chmod(0o755)
    return shim


def test_a_failing_shim_is_passed_over_for_pyenvs_own_version(tmp_path):
    shim = _shim(tmp_path / "shims")
    real = tmp_path / "pyenv" / "versions" / "3.12.9" / "bin" / NAME
    real.parent.mkdir(parents=True)
    os.symlink(sys.executable, real)  # the tests run on 3.12
    older = tmp_path / "pyenv" / "versions" / "3.12.1" / "bin" / NAME
    older.parent.mkdir(parents=True)
    os.symlink(sys.executable, older)
    assert candidates(str(shim.parent), str(tmp_path / "pyenv")) == [shim, real, older]  # newest first
    assert find_python(str(shim.parent), str(tmp_path / "pyenv"), current=False) == str(real)


def test_nothing_found_says_what_to_install(tmp_path):
    shim = _shim(tmp_path / "shims")
    assert find_python(str(shim.parent), str(tmp_path / "no-pyenv"), current=False) is None
    assert "pyenv install 3.12" in MISSING and "\n" not in MISSING
