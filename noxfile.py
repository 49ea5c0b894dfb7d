"""Build and test the bilingual JAX knowledge base.

    nox -s docs      build _build/html/en/ and _build/html/zh_CN/ (every snippet run once, alone)
    nox -s docs -- --shard K/N [--out DIR]    run only shard K of N of the snippets (records to DIR)
    nox -s docs -- --records DIR [DIR ...]    render both languages from gathered records, running none
    nox -s tests     every check that needs no network (lints, then builds the site first)
    nox -s doctest   the pages' >>> examples with the pinned versions, and the checks that keep them
    nox -s lint      ruff over every Python file (settings in pyproject.toml), in about a second
    nox -s i18n      regenerate .pot files, update the zh_CN catalogues, print per-file counts
    nox -s links     check every language's external links and anchors (needs a network; _build/linkcheck/)
    nox -s notebooks [-- PAGE ...]  build, then run every page's notebook top to bottom in one kernel (_build/notebooks/)
    nox -s serve     rebuild the English site on change, for authors
    nox -s bench     measure build times (cold, Chinese only, warm, one snippet edited)
    nox -s bench-site  page weight, search index sizes, query time in the browser
    nox -s docs-gpu  the docs build with the CUDA build of jaxlib, on a machine with an NVIDIA GPU
    nox -s page -- docs/<section>/<page>.md   while writing: both languages, only that page executed
    nox -s canary [-- SPEC ... | --pre | --floors]  the snippets against other releases (report in _build/canary/)
    nox -s precision [-- --mode tf32]   the comparison programs under an accelerator's default matmul precision

All sessions share one environment (.nox/kb, Python 3.12, requirements.txt), installed once and
reinstalled only when requirements.txt changes: torch alone is several GB. uv installs the pins
(parallel downloads and bytecode compilation: faster than pip on a 2-core machine, the same
versions): the one beside nox (as .ci/run installs it) or on PATH, else the pinned ``UV`` that pip
puts into the new environment first; pip installs them only where that fails.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import sys
from pathlib import Path

import nox


def _load(name: str, path: Path):
    """Import a module of this repository by its path (nox does not put the repository on sys.path,
    and conf.py and tools/site.py use only the standard library, so they load before the environment
    exists). nox's own import path for these four modules (LAYOUT.md, "Imports")."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = sys.modules[name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_here = Path(__file__).resolve().parent
_load("conf", _here / "conf.py")  # the language table (kb_languages) lives there
_site = _load("tools.site", _here / "tools" / "site.py")
_interpreter = _load("tools.interpreter", _here / "tools" / "interpreter.py")  # finds Python 3.12
_browser = _load("tools.browser", _here / "tools" / "browser.py")  # where Chromium is
_platforms = _load("kb.run.platforms", _here / "docs" / "_ext" / "kb" / "run" / "platforms.py")  # the platform table
BUILD, HTML, LANGUAGES, ROOT = _site.BUILD, _site.HTML, _site.LANGUAGES, _site.ROOT
SOURCE_LANGUAGE, sphinx_command = _site.SOURCE_LANGUAGE, _site.sphinx_command

nox.options.sessions = ["docs", "tests"]
nox.options.default_venv_backend = "none"


def _python312() -> str:
    found = _interpreter.find_python()
    if found is None:
        raise SystemExit(_interpreter.MISSING)
    return found


UV = "uv==0.13.9"  # the installer a newcomer's `pip install nox` lacks (.ci/run installs the same beside nox)


def _uv(session: nox.Session, bin_dir: Path) -> str | None:
    """uv beside nox's own Python, else on PATH, else the pinned one installed into the environment
    by its own pip (a few seconds); None where that fails too (pip installs the pins then)."""
    for found in (Path(sys.executable).parent / "uv", shutil.which("uv"), bin_dir / "uv"):
        if found and Path(found).exists():
            return str(found)
    try:
        session.run(str(bin_dir / "python"), "-m", "pip", "install", "-q", UV, external=True)
    except nox.command.CommandFailed:
        return None
    return str(bin_dir / "uv")


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
        uv = _uv(session, bin_dir)
        if uv:  # the same pins, the same versions (checked with `pip freeze` on 2026-12-06), faster
            session.run(uv, "pip", "install", "-q", "--compile-bytecode", "--python", str(bin_dir / "python"),
                        "-r", str(req), external=True)
        else:
            session.run(str(bin_dir / "python"), "-m", "pip", "install", "-q", "-r", str(req), external=True)
        stamp.write_text(digest)
    session.env["PATH"] = f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"
    session.env["VIRTUAL_ENV"] = str(venv)
    return bin_dir


def _sphinx(session: nox.Session, bin_dir: Path, language: str, out: Path, *extra: str) -> None:
    # A translated build reads every page from the cache the source language's build filled, and
    # fails if it would have to execute one (kb_languages in conf.py: execute is False).
    # Each output folder has its own doctrees (html-gpu's pages hold GPU outputs).
    doctrees = BUILD / "doctrees" / language if out.parent == HTML else BUILD / f"doctrees-{out.parent.name}" / language
    args = sphinx_command(ROOT / "docs", out, doctrees=doctrees, language=language,
                          parallel=True, python=str(bin_dir / "python"), extra=extra)
    session.run(*args, external=True)


def _root_index(session: nox.Session, bin_dir: Path, out: Path) -> None:
    # The language choice and the list of every language's llms.txt, written from kb_languages.
    session.run(str(bin_dir / "python"), "-m", "tools.root_pages", str(out), external=True)


def build_docs(session: nox.Session, bin_dir: Path, html: Path = HTML, *extra: str) -> None:
    for language in LANGUAGES:
        _sphinx(session, bin_dir, language, html / language, *extra)
    _root_index(session, bin_dir, html)
    session.log(f"Built {', '.join(str(html / lang) for lang in LANGUAGES)}.")
    # Opened from disk (file://) the pages work, but search lists results without summaries.
    session.log(f"Serve it: {' '.join(_browser.serve_command(os.path.relpath(html)))}  "
                f"then open http://127.0.0.1:8000/")


def _split_posargs(posargs: list[str]) -> tuple[list[str], list[str], list[str]]:
    """(--shard/--out arguments, --records folders, the rest for sphinx-build)."""
    shard, records, rest = [], [], []
    args = list(posargs)
    while args:
        arg = args.pop(0)
        if arg in ("--shard", "--out"):
            if not args:
                raise SystemExit(f"{arg} needs a value (nox -s docs -- --shard 1/2 --out DIR)")
            shard += [arg, args.pop(0)]
        elif arg == "--records":
            while args and not args[0].startswith("-"):
                records.append(args.pop(0))
            if not records:
                raise SystemExit("--records needs the folders the shards wrote (nox -s docs -- --records DIR ...)")
        else:
            rest.append(arg)
    return shard, records, rest


@nox.session
def docs(session: nox.Session) -> None:
    """Build every language of the site (the source language first: it runs the snippets that have
    no record; the others read the records).

    ``-- --shard K/N [--out DIR]`` runs only shard K's snippets and writes their records (no
    pages); ``-- --records DIR ...`` imports the gathered records, then renders both languages
    running nothing (a record made with another lock or runner is refused)."""
    bin_dir = _env(session)
    shard, records, rest = _split_posargs(session.posargs)
    python = str(bin_dir / "python")
    if shard:
        if "--shard" not in shard:
            session.error("--out goes with --shard K/N")
        session.run(python, "-m", "tools.shards", *shard, external=True)
        return
    if records:
        session.run(python, "-m", "tools.shards", "--import", *records, external=True)
        rest = ["-D", "kb_mode=render", *rest]
    build_docs(session, bin_dir, HTML, *rest)


@nox.session(name="docs-gpu")
def docs_gpu(session: nox.Session) -> None:
    """The docs build on an NVIDIA GPU: CUDA 13 jaxlib plugin, its own records, doctrees and output.

    Every program that starts JAX must have started the GPU backend (``kb_expect_backend=gpu``):
    a silent fallback to the CPU fails the build, naming the program. The runner lets the
    programs share the GPU (no preallocation, ``kb.run.process.SHARING``). Needs a machine with an
    NVIDIA driver for CUDA 13; it cannot run on the CPU-only CI.
    """
    bin_dir = _env(session, "kb-gpu", _platforms.PLATFORMS["gpu"].requirements)
    session.run(str(bin_dir / "python"), "-c", "import jax; assert jax.default_backend() == 'gpu', jax.devices()", external=True)
    build_docs(
        session,
        bin_dir,
        BUILD / "html-gpu",
        "-D", f"kb_records={BUILD / 'records-gpu'}",
        "-D", "kb_expect_backend=gpu",
        *session.posargs,
    )


@nox.session
def page(session: nox.Session) -> None:
    """Author's check of some pages: nox -s page -- docs/core/jit.md [more pages]

    Builds the whole site in both languages with warnings as errors, but runs only the named
    pages' snippets (the others show the records they have, or no outputs), in
    _build/page/<first page>/ with the site's records. This is a drafting aid: the site itself is
    only ever built by `nox -s docs`, which runs every snippet that has no record.
    """
    if not session.posargs:
        session.error("name the pages: nox -s page -- docs/<section>/<page>.md")
    docs = ROOT / "docs"
    chosen = [Path(p).resolve() for p in session.posargs]
    for path in chosen:
        if not path.is_file() or not path.is_relative_to(docs):
            session.error(f"{path} is not a page under docs/")
    work = BUILD / "page" / chosen[0].relative_to(docs).with_suffix("").as_posix().replace("/", "-")
    bin_dir = _env(session)
    # conf.py reads it: only these pages' snippets run.
    session.env["KB_MODE"] = "run:" + ",".join(p.relative_to(docs).with_suffix("").as_posix() for p in chosen)
    for language in LANGUAGES:
        args = sphinx_command(docs, work / "html" / language, doctrees=work / "doctrees" / language,
                              language=language, parallel=True, python=str(bin_dir / "python"))
        session.run(*args, external=True)
    _root_index(session, bin_dir, work / "html")
    session.log(f"Built {work / 'html'}/{{{','.join(LANGUAGES)}}}/ (only {', '.join(session.posargs)} executed)")


def _lint(session: nox.Session, bin_dir: Path) -> None:
    """ruff (pinned; rules and exclusions in pyproject.toml, [tool.ruff]) over the repository."""
    session.run(str(bin_dir / "ruff"), "check", str(ROOT), external=True)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff over every Python file: the extension, tools, tests, snippets, conf.py, this file.
    `nox -s tests` runs it first, so a lint error stops it before the build."""
    _lint(session, _env(session))


@nox.session
def tests(session: nox.Session) -> None:
    """Everything that needs no network: the lint, snippets, doctests, translations, the built site."""
    if _browser.chromium_path() is None:  # say it now, not as a dozen errors at the end
        session.error(f"the browser tests need Debian's Chromium: {_browser.INSTALL} (or set KB_CHROMIUM)")
    bin_dir = _env(session)
    _lint(session, bin_dir)  # seconds; before the build's minutes
    build_docs(session, bin_dir)
    # pytest's settings (paths, doctests, -n auto) are in pyproject.toml.
    session.run(str(bin_dir / "python"), "-m", "pytest", *session.posargs, external=True)


@nox.session
def doctest(session: nox.Session) -> None:
    """The pages' `>>>` examples (kb.examples) with the pinned versions, without building the site:
    pytest's doctest over docs/ (`--doctest-glob=*.md`, pyproject.toml; each page's examples in one
    process, a warning an error: tools/pytest_pages.py), and tests/test_doctests.py: the pages collected,
    a wrong output failing with the page and the line (a fixture), the Chinese catalogues keeping the
    examples byte for byte, the cheat sheet's rows. `nox -s tests` runs all of it too, and there
    also compares the examples of both languages' built pages."""
    bin_dir = _env(session)
    session.run(str(bin_dir / "python"), "-m", "pytest", "docs", "--ignore=docs/_ext", "tests/test_doctests.py",
                "--deselect", "tests/test_doctests.py::test_the_built_pages_show_the_same_examples",
                *session.posargs, external=True)


@nox.session
def canary(session: nox.Session) -> None:
    """Run the snippets against other releases: nox -s canary -- jax==0.13.0 flax (default: the newest
    releases of the JAX stack; --pre admits pre-releases; --floors walks older releases into
    docs/_data/floors/). The pins never change: the canary installs into an overlay environment
    of its own (.nox/canary/). Writes _build/canary/<versions>/report.md; exit status 1 on a failure."""
    bin_dir = _env(session)
    session.run(str(bin_dir / "python"), "-m", "tools.canary", *session.posargs, external=True)


@nox.session
def precision(session: nox.Session) -> None:
    """The comparison programs on the CPU under an accelerator's default matmul precision:
    nox -s precision [-- --mode tf32 | --only GLOB | --shard K/N] (default bf16, a TPU's one pass;
    kb.run.precision). Exit status 1 where a tolerance holds only at full float32."""
    bin_dir = _env(session)
    session.run(str(bin_dir / "python"), "-m", "tools.precision_check", *session.posargs, external=True)


@nox.session
def i18n(session: nox.Session) -> None:
    """Regenerate the .pot files and update the catalogues of every translation; print what is left."""
    bin_dir = _env(session)
    # Figure words come from executed pages: the source language's build runs what changed first.
    _sphinx(session, bin_dir, SOURCE_LANGUAGE, HTML / SOURCE_LANGUAGE)
    pot = BUILD / "gettext"
    shutil.rmtree(pot, ignore_errors=True)  # a deleted page's template must not come back
    session.run(*sphinx_command(ROOT / "docs", pot, doctrees=BUILD / "doctrees" / "gettext", builder="gettext",
                                parallel=True, python=str(bin_dir / "python")), external=True)
    for language in LANGUAGES[1:]:
        session.run(str(bin_dir / "sphinx-intl"), "update", "-p", str(pot), "-l", language,
                    "-d", str(ROOT / "docs" / "locales"), "-w", "0", external=True)
    session.run(str(bin_dir / "python"), "-m", "tools.i18n_report", "--normalize", external=True)


@nox.session
def links(session: nox.Session) -> None:
    """Check every language's external links and their anchors with Sphinx's linkcheck (needs a
    network; the settings, retries, rate limit, timeout and allowed redirects, are in conf.py).

    Each language is built with the linkcheck builder (no cell outputs: nothing runs) into
    _build/linkcheck/<language>/ (Sphinx's output.json and output.txt); a translation can link
    elsewhere than the source. Then tools.links_report prints the summary (and writes
    _build/linkcheck/summary.md). Fails where any language's check failed."""
    bin_dir = _env(session)
    python = str(bin_dir / "python")
    reports = BUILD / "linkcheck"
    failed = []
    for language in LANGUAGES:
        shutil.rmtree(reports / language, ignore_errors=True)  # no earlier run's report survives a crash
        try:
            session.run(*sphinx_command(ROOT / "docs", reports / language, doctrees=BUILD / "doctrees-linkcheck" / language,
                                        language=language, builder="linkcheck", outputs=False, parallel=True,
                                        python=python), external=True)
        except nox.command.CommandFailed:
            failed.append(language)  # the other languages are checked all the same
    session.run(python, "-m", "tools.links_report", str(reports), *LANGUAGES, success_codes=[0, 1], external=True)
    if failed:
        session.error(f"the link check failed for {', '.join(failed)} (the summary above; {reports}/<language>/output.txt)")


@nox.session
def notebooks(session: nox.Session) -> None:
    """Every page's notebook as a reader runs it: top to bottom in one Jupyter kernel (nbclient), on
    the CPU, restarting the kernel only where the notebook tells the reader to (kb.notebooks), each
    cell's output compared with the page's (tools/notebooks.py). Builds the site first (only what
    changed: the records are kept), then runs the source language's notebooks (the other languages'
    hold the same programs); ``-- core/jit ...`` runs only those, ``-- --no-build`` runs the
    notebooks of the site as it is. Report: _build/notebooks/report.md; fails where any notebook failed."""
    bin_dir = _env(session)
    args = list(session.posargs)
    if "--no-build" in args:
        args.remove("--no-build")
    else:
        build_docs(session, bin_dir)
    session.run(str(bin_dir / "python"), "-m", "tools.notebooks", *args, external=True)


@nox.session
def serve(session: nox.Session) -> None:
    """Rebuild the source-language site on every change and serve it on http://127.0.0.1:8000."""
    bin_dir = _env(session)
    args = sphinx_command(ROOT / "docs", HTML / SOURCE_LANGUAGE, doctrees=BUILD / "doctrees" / SOURCE_LANGUAGE,
                          python=str(bin_dir / "python"), module="sphinx_autobuild",
                          extra=["--watch", str(ROOT / "snippets"), "--host", "127.0.0.1", "--port", "8000",
                                 *session.posargs])
    session.run(*args, external=True)


@nox.session
def bench(session: nox.Session) -> None:
    """Measure the build: cold, Chinese alone, warm, and after editing one snippet."""
    bin_dir = _env(session)
    session.run(str(bin_dir / "python"), "-m", "tools.bench_build", *session.posargs, external=True)


@nox.session(name="bench-site")
def bench_site(session: nox.Session) -> None:
    """Measure page weight, search index sizes and query times in the browser (after nox -s docs)."""
    bin_dir = _env(session)
    session.run(str(bin_dir / "python"), "-m", "tools.bench_site", external=True)
