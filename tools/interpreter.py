"""Find the Python the site's environment is made with (3.12), the way nox users expect.

``nox`` may itself run on another Python (a system 3.11, say). The environment ``.nox/kb`` needs
3.12 (jax 0.12 needs it), so ``find_python`` looks, in this order, at: the Python running nox; each
``python3.12`` on ``PATH`` (a pyenv shim is one, and fails unless a 3.12 is selected, so every
candidate is run once to see that it works); pyenv's installed 3.12 versions (``$PYENV_ROOT`` or
``~/.pyenv``), newest first. Nothing found: ``MISSING`` says in one line what to install.
Standard library only: nox imports this before the environment exists.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REQUIRED = (3, 12)
NAME = "python{}.{}".format(*REQUIRED)
MISSING = (f"Python {REQUIRED[0]}.{REQUIRED[1]} is required (jax 0.12 needs it) and none works on PATH or among "
           f"pyenv's versions: install it (pyenv install {REQUIRED[0]}.{REQUIRED[1]}, or your system's {NAME} "
           f"package) and run nox again.")


def candidates(path: str | None = None, pyenv_root: str | None = None) -> list[Path]:
    """Interpreters that may be Python 3.12, best first (not yet checked)."""
    found: list[Path] = []
    for folder in (path if path is not None else os.environ.get("PATH", "")).split(os.pathsep):
        if folder and (Path(folder) / NAME).is_file():
            found.append(Path(folder) / NAME)
    root = Path(pyenv_root or os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
    versions = [p for p in (root / "versions").glob(f"{REQUIRED[0]}.{REQUIRED[1]}.*") if (p / "bin" / NAME).is_file()]

    def patch(p: Path) -> int:
        match = re.search(r"\.(\d+)$", p.name)
        return int(match.group(1)) if match else -1

    found += [p / "bin" / NAME for p in sorted(versions, key=patch, reverse=True)]
    return list(dict.fromkeys(found))


def works(python: Path) -> bool:
    """Whether ``python`` runs and is the required version."""
    try:
        result = subprocess.run([str(python), "-c", "import sys; print(*sys.version_info[:2])"],
                                capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0 and result.stdout.split() == [str(n) for n in REQUIRED]


def find_python(path: str | None = None, pyenv_root: str | None = None, current: bool = True) -> str | None:
    """The first Python 3.12 that works, or None."""
    if current and sys.version_info[:2] == REQUIRED:
        return sys.executable
    return next((str(p) for p in candidates(path, pyenv_root) if works(p)), None)
