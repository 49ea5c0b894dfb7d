"""Build and test the bilingual JAX knowledge base.

    nox -s docs      build _build/html/en/ and _build/html/zh_CN/ (every page executed once)
    nox -s tests     every check that needs no network (builds the site first)
    nox -s i18n      regenerate .pot files, update the zh_CN catalogues, print per-file counts
    nox -s links     check external links (needs a network)
    nox -s serve     rebuild the English site on change, for authors
    nox -s bench     measure build times (cold, Chinese only, warm, one snippet edited)
    nox -s bench-site  page weight, search index sizes, query time in the browser
    nox -s docs-gpu  the docs build with the CUDA build of jaxlib, on a machine with an NVIDIA GPU
    nox -s page -- docs/<section>/<page>.md   while writing: both languages, only that page executed

All sessions share one environment (.nox/kb, Python 3.12, requirements.txt), installed once and
reinstalled only when requirements.txt changes: torch alone is several GB.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from pathlib import Path

import nox

ROOT = Path(__file__).resolve().parent
BUILD = ROOT / "_build"
HTML = BUILD / "html"
LANGUAGES = ("en", "zh_CN")
# tests/ plus doctests: our extension's and test tools' docstrings, and `>>>` examples in pages.
PYTEST_ARGS = ["tests", "docs", "--doctest-modules", "--doctest-glob=*.md",
               "--ignore=docs/_ext/kb_probe.py", "-p", "no:cacheprovider", "-n", "auto"]

sys.path.insert(0, str(ROOT / "tests"))
from kbtools import sphinx_command  # noqa: E402  (stdlib only: importable before the venv exists)

nox.options.sessions = ["docs", "tests"]
nox.options.default_venv_backend = "none"


def _python312() -> str:
    if sys.version_info[:2] == (3, 12):
        return sys.executable
    for name in ("python3.12",):
        found = shutil.which(name)
        if found:
            return found
    raise SystemExit("Python 3.12 is required (jax 0.12 needs >= 3.12); put python3.12 on PATH.")


def _env(session: nox.Session, name: str = "kb", requirements: str = "requirements.txt") -> Path:
    """Create (once) the shared virtualenv and return its bin directory."""
    venv = ROOT / ".nox" / name
    bin_dir = venv / "bin"
    req = ROOT / requirements
    digest = hashlib.sha256(req.read_bytes()).hexdigest()
    if requirements != "requirements.txt":
        digest += hashlib.sha256((ROOT / "requirements.txt").read_bytes()).hexdigest()
    stamp = venv / ".requirements.sha256"
    if not (bin_dir / "python").exists():
        session.run(_python312(), "-m", "venv", str(venv), external=True)
    if not stamp.exists() or stamp.read_text() != digest:
        session.run(str(bin_dir / "python"), "-m", "pip", "install", "-q", "-r", str(req), external=True)
        stamp.write_text(digest)
    session.env["PATH"] = f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"
    session.env["VIRTUAL_ENV"] = str(venv)
    return bin_dir


def _sphinx(session: nox.Session, bin_dir: Path, language: str, out: Path, *extra: str) -> None:
    # The translated build reads every page from the cache the English build filled, and fails if
    # it would have to execute one (sphinx_command adds kb_execute=0).
    args = sphinx_command(ROOT / "docs", out, doctrees=BUILD / "doctrees" / language, language=language,
                          parallel=True, python=str(bin_dir / "python"), extra=extra)
    session.run(*args, external=True)


def _root_index(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(ROOT / "docs" / "_root" / "index.html", out / "index.html")


def build_docs(session: nox.Session, bin_dir: Path, html: Path = HTML, *extra: str) -> None:
    for language in LANGUAGES:
        _sphinx(session, bin_dir, language, html / language, *extra)
    _root_index(html)
    session.log(f"Built {', '.join(str(html / lang) for lang in LANGUAGES)}; open {html / 'index.html'}")


@nox.session
def docs(session: nox.Session) -> None:
    """Build the English and Chinese sites (English first: it executes; Chinese reuses)."""
    build_docs(session, _env(session), HTML, *session.posargs)


@nox.session(name="docs-gpu")
def docs_gpu(session: nox.Session) -> None:
    """The docs build on an NVIDIA GPU: CUDA 13 jaxlib plugin, its own cache and output.

    Needs a machine with an NVIDIA driver for CUDA 13; it cannot run on the CPU-only CI.
    """
    bin_dir = _env(session, "kb-gpu", "requirements-gpu.txt")
    session.run(str(bin_dir / "python"), "-c", "import jax; assert jax.default_backend() == 'gpu', jax.devices()", external=True)
    build_docs(
        session,
        bin_dir,
        BUILD / "html-gpu",
        "-D", f"nb_execution_cache_path={BUILD / '.jupyter_cache-gpu'}",
        *session.posargs,
    )


@nox.session
def page(session: nox.Session) -> None:
    """Author's check of some pages: nox -s page -- docs/core/jit.md [more pages]

    Builds the whole site in both languages with warnings as errors, but executes only the named
    pages (the others render without outputs), in _build/page/<first page>/ with its own cache.
    This is a drafting aid: the site itself is only ever built by `nox -s docs`, executing all.
    """
    if not session.posargs:
        session.error("name the pages: nox -s page -- docs/<section>/<page>.md")
    docs = ROOT / "docs"
    chosen = [Path(p).resolve() for p in session.posargs]
    for path in chosen:
        if not path.is_file() or not path.is_relative_to(docs):
            session.error(f"{path} is not a page under docs/")
    others = sorted(
        str(p.relative_to(docs))
        for p in docs.rglob("*.md")
        if p.resolve() not in chosen and not ({"_build", "locales", "_ext"} & set(p.relative_to(docs).parts))
    )
    work = BUILD / "page" / chosen[0].relative_to(docs).with_suffix("").as_posix().replace("/", "-")
    bin_dir = _env(session)
    session.env["KB_EXCLUDE_EXECUTION"] = ",".join(others)  # read by conf.py
    for language in LANGUAGES:
        args = sphinx_command(docs, work / "html" / language, doctrees=work / "doctrees" / language,
                              language=language, cache=work / "cache", parallel=True,
                              python=str(bin_dir / "python"), extra=["-D", "suppress_warnings=myst-nb.lexer"])
        session.run(*args, external=True)
    session.log(f"Built {work / 'html'}/{{en,zh_CN}}/ (only {', '.join(session.posargs)} executed)")


@nox.session
def tests(session: nox.Session) -> None:
    """Everything that needs no network: snippets, doctests, translations, the built site."""
    bin_dir = _env(session)
    build_docs(session, bin_dir)
    session.run(str(bin_dir / "python"), "-m", "pytest", *(session.posargs or PYTEST_ARGS), external=True)


@nox.session
def i18n(session: nox.Session) -> None:
    """Regenerate the .pot files and update the zh_CN catalogues; print what is left to do."""
    bin_dir = _env(session)
    pot = BUILD / "gettext"
    session.run(
        str(bin_dir / "sphinx-build"), "-b", "gettext", "-c", str(ROOT), "-q",
        "-d", str(BUILD / "doctrees" / "gettext"), "-D", "nb_execution_mode=off",
        "-D", "suppress_warnings=myst-nb.lexer",  # no kernel runs, so cells have no lexer
        str(ROOT / "docs"), str(pot), external=True,
    )
    session.run(
        str(bin_dir / "sphinx-intl"), "update", "-p", str(pot), "-l", "zh_CN",
        "-d", str(ROOT / "docs" / "locales"), "-w", "0", external=True,
    )
    session.run(str(bin_dir / "python"), str(ROOT / "tests" / "i18n_report.py"), "--normalize", external=True)


@nox.session
def links(session: nox.Session) -> None:
    """Check external links with Sphinx's linkcheck (needs a network)."""
    bin_dir = _env(session)
    session.run(
        str(bin_dir / "sphinx-build"), "-b", "linkcheck", "-c", str(ROOT), "-q",
        "-d", str(BUILD / "doctrees" / "linkcheck"), "-D", "nb_execution_mode=off",
        "-D", "suppress_warnings=myst-nb.lexer",
        str(ROOT / "docs"), str(BUILD / "linkcheck"), external=True,
    )


@nox.session
def serve(session: nox.Session) -> None:
    """Rebuild the English site on every change and serve it on http://127.0.0.1:8000."""
    bin_dir = _env(session)
    session.run(
        str(bin_dir / "sphinx-autobuild"), "-c", str(ROOT), "-d", str(BUILD / "doctrees" / "en"),
        "--watch", str(ROOT / "snippets"), "--host", "127.0.0.1", "--port", "8000",
        str(ROOT / "docs"), str(HTML / "en"), *session.posargs, external=True,
    )


@nox.session
def bench(session: nox.Session) -> None:
    """Measure the build: cold, Chinese alone, warm, and after editing one snippet."""
    bin_dir = _env(session)
    session.run(str(bin_dir / "python"), str(ROOT / "tests" / "bench_build.py"), *session.posargs, external=True)


@nox.session(name="bench-site")
def bench_site(session: nox.Session) -> None:
    """Measure page weight, search index sizes and query times in the browser (after nox -s docs)."""
    bin_dir = _env(session)
    session.run(str(bin_dir / "python"), str(ROOT / "tests" / "bench_site.py"), external=True)
