"""The repository owns its rules: no tracked file points to a file outside it (``../shared/``), and
the style guides it points to instead, CONTRIBUTING.md and TRANSLATING.md, exist and are linked
from README.md."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tools.site import ROOT

THIS = Path(__file__).resolve().relative_to(ROOT).as_posix()
OUTSIDE = re.compile(rb"\.\./shared/|shared/STYLE\.md|shared/GLOSSARY")
GUIDES = ["CONTRIBUTING.md", "TRANSLATING.md"]


def tracked_files() -> list[str]:
    result = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True)
    assert result.returncode == 0, f"git ls-files failed: {result.stderr.decode(errors='replace')}"
    return [name for name in result.stdout.decode().split("\0") if name]


def test_no_tracked_file_points_outside_the_repository():
    """A fresh clone has no ../shared/: the rules live in CONTRIBUTING.md and TRANSLATING.md."""
    files = tracked_files()
    assert "README.md" in files, "git ls-files lists no README.md: not the repository's checkout?"
    found = []
    for name in files:
        path = ROOT / name
        if name == THIS or not path.is_file():  # the test itself; a tracked file deleted in the work tree
            continue
        for number, line in enumerate(path.read_bytes().splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{name}:{number}: {line.decode(errors='replace').strip()[:120]}")
    assert not found, ("these lines point to a file outside the repository; point to CONTRIBUTING.md "
                       "(pages, snippets) or TRANSLATING.md (Chinese) instead:\n" + "\n".join(found))


@pytest.mark.parametrize("guide", GUIDES)
def test_style_guide_exists_and_is_linked_from_the_readme(guide):
    path = ROOT / guide
    assert path.is_file(), f"{guide} is missing at the repository root"
    assert path.read_text(encoding="utf-8").strip(), f"{guide} is empty"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"]({guide})" in readme, f"README.md has no link to {guide} (write [{guide}]({guide}))"
