"""Shared fixtures. The tests need no network; `nox -s tests` builds the site before running them.
Paths and settings come from pyproject.toml ([tool.pytest.ini_options])."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tools.site import HTML, LANGUAGES, ROOT, sphinx_command


@pytest.fixture(scope="session")
def site() -> Path:
    """The built site (nox -s tests builds it first; run `nox -s docs` before plain pytest)."""
    missing = [lang for lang in LANGUAGES if not (HTML / lang / "index.html").exists()]
    if missing:
        pytest.fail(f"the site is not built for {missing}: run `nox -s docs` (nox -s tests does it)")
    return HTML


@pytest.fixture()
def fixture_project(tmp_path: Path):
    """A copy of tests/fixtures/good (one page, two snippets, a zh_CN catalogue) to break."""

    def make(name: str = "good") -> Path:
        dest = tmp_path / name
        shutil.copytree(ROOT / "tests" / "fixtures" / name, dest)
        return dest

    return make


@pytest.fixture(scope="session")
def shared_records(tmp_path_factory) -> Path:
    """One records folder for the fixture builds of a test process: an unchanged fixture snippet
    has the same key in every copy of the project, so it runs once, not once per test."""
    return tmp_path_factory.mktemp("records")


@pytest.fixture()
def build_project(tmp_path: Path, shared_records: Path):
    """Build a (fixture) project's docs/ with the site's own conf.py (tools.site.sphinx_command):
    ``build(project, language=..., builder=..., outputs=..., extra=..., env=..., records=..., cwd=...)``;
    the records folder is shared by the process's fixture builds (``records``: another one, for
    a test about what a build runs)."""

    def build(project: Path, *, language: str = LANGUAGES[0], builder: str = "html", outputs: bool = True,
              extra: tuple[str, ...] = (), env: dict[str, str] | None = None, out: Path | None = None,
              records: Path | None = None, cwd: Path | None = None, timeout: int = 600) -> subprocess.CompletedProcess:
        out = out or tmp_path / "out" / language
        args = sphinx_command(project / "docs", out, doctrees=out.parent / f"doctrees-{language}-{builder}",
                              language=language, cache=records or shared_records, builder=builder,
                              outputs=outputs, extra=extra)
        return subprocess.run(args, capture_output=True, text=True, timeout=timeout, cwd=cwd,
                              env={**os.environ, **(env or {})})

    return build
