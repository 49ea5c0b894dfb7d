"""The cache key of the snippet records, for CI: ``python3 tools/records_key.py`` prints it.

    records-<RUNNER>-<sha256 of requirements.txt, 16 hex>-py<major.minor>

A record is reused only when its snippet's bytes, the pinned requirements, the Python and the
runner (``kb.run.process.RUNNER``) are the ones it was made with (``kb.run.store``), so those are
what the cached folder is keyed on: a new runner or new pins start a fresh cache instead of
carrying dead records. The workflows used to spell the key as a ``hashFiles(...)`` of four run-core
files, six times over, and hashed files that ``RUNNER`` does not (architecture review F18); now
each job asks this one command. It needs only the standard library (it runs before nox installs
anything).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as a script by CI's system Python before nox installs anything (LAYOUT.md, "Imports").
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from kb.run.process import RUNNER  # noqa: E402 (the run core: standard library only)


def records_key(root: Path = ROOT) -> str:
    """The key for this Python and ``root``'s pins.

    >>> key = records_key()
    >>> key.startswith(f"records-{RUNNER}-") and key.endswith(f"-py{sys.version_info[0]}.{sys.version_info[1]}")
    True
    """
    pins = hashlib.sha256((root / "requirements.txt").read_bytes()).hexdigest()[:16]
    return f"records-{RUNNER}-{pins}-py{sys.version_info[0]}.{sys.version_info[1]}"


if __name__ == "__main__":
    print(records_key())
