"""Shared fixtures. The tests need no network; `nox -s tests` builds the site before running them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kbtools import HTML, LANGUAGES, ROOT, sphinx_command  # noqa: E402

collect_ignore = ["fixtures", "bench_build.py", "i18n_report.py"]


@pytest.fixture(scope="session")
def site() -> Path:
    """The built site (nox -s tests builds it first; run `nox -s docs` before plain pytest)."""
    missing = [lang for lang in LANGUAGES if not (HTML / lang / "index.html").exists()]
    if missing:
        pytest.fail(f"the site is not built for {missing}: run `nox -s docs` (nox -s tests does it)")
    return HTML


def sphinx_build(
    src: Path,
    out: Path,
    *,
    language: str = "en",
    cache: Path,
    builder: str = "html",
    extra: tuple[str, ...] = (),
    env: dict[str, str] | None = None,
    timeout: int = 600,
) -> subprocess.CompletedProcess:
    """Build a (fixture) project with the site's own conf.py, warnings as errors."""
    args = sphinx_command(src, out, doctrees=out.parent / f"doctrees-{language}-{builder}", language=language,
                          cache=cache, builder=builder, extra=extra)
    return subprocess.run(
        args, capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})}
    )


@pytest.fixture()
def fixture_project(tmp_path: Path):
    """A copy of tests/fixtures/good (one page, two snippets, a zh_CN catalogue) to break."""

    def make(name: str = "good") -> Path:
        dest = tmp_path / name
        shutil.copytree(ROOT / "tests" / "fixtures" / name, dest)
        return dest

    return make
