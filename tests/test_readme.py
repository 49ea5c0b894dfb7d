"""The README stays a short guide: at most 250 lines, its two commands are the ones CI and the
build use, and every repository path it names in backticks exists (so do those of the files it
sends readers to: DETAILS.md, BENCHMARKS.md), as does every name in the layout trees of README.md
and LAYOUT.md."""

from __future__ import annotations

import re
import subprocess

import pytest

from tools.site import ROOT

README = ROOT / "README.md"
MAX_LINES = 250
GUIDES = ["README.md", "DETAILS.md", "BENCHMARKS.md"]
CODE = re.compile(r"`([^`\n]+)`")
PLACEHOLDER = re.compile(r"[<>*?{}\[\]$ ]|\.\.\.|…")


def top_level() -> set[str]:
    """The names at the root of the repository's tracked files (docs, tools, conf.py, .ci, ...)."""
    result = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    return {name.split("/")[0] for name in result.stdout.decode().split("\0") if name}


def repository_paths(text: str, roots: set[str]) -> list[str]:
    """The backticked spans of ``text`` that name a path in the repository: no placeholder, glob or
    space, and a first part that is a tracked name at the root.

    >>> repository_paths("`tools/x.py`, `snippets/<section>/`, `core/jit.md`, `nox -s docs`, `conf.py`",
    ...                  {"tools", "snippets", "conf.py"})
    ['tools/x.py', 'conf.py']
    """
    found = []
    for span in CODE.findall(text):
        span = span.strip().rstrip(":,;")
        if PLACEHOLDER.search(span) or "://" in span:
            continue
        if span.split("/")[0] in roots and ("/" in span or "." in span):
            found.append(span)
    return found


NAME = re.compile(r"^( {0,6})([\w./-]+(?:, [\w./-]+)*)(?=\s|$)")


def layout_paths(tree: str) -> list[str]:
    r"""The paths a layout tree names: a name at the start of a line, or indented under a folder
    (2 spaces a level); descriptions and their continuation lines (indented further) are skipped.

    >>> layout_paths("docs/_ext/kb/   the extension\n  run/   the core\n    batch.py  many programs\n"
    ...              "                 a continuation line\n  cells.py, reader.py   cells\nsnippets/<s>/  code")
    ['docs/_ext/kb/', 'docs/_ext/kb/run/', 'docs/_ext/kb/run/batch.py', 'docs/_ext/kb/cells.py', 'docs/_ext/kb/reader.py']
    """
    found, parents = [], []  # parents: (indent, folder)
    for line in tree.split("\n"):
        match = NAME.match(line)
        if not match or "<" in line.split("  ")[0].strip():
            continue
        indent = len(match.group(1))
        parents = [(i, folder) for i, folder in parents if i < indent]
        prefix = parents[-1][1] if parents and indent else ""
        for name in match.group(2).split(", "):
            found.append(prefix + name)
            if name.endswith("/"):
                parents.append((indent, prefix + name))
    return found


def code_blocks(text: str, heading: str) -> list[str]:
    """The fenced blocks between ``heading`` and the next heading of the same level."""
    level = heading.split(" ")[0]
    part = ("\n" + text).split(f"\n{heading}\n", 1)[1]
    part = re.split(rf"\n{re.escape(level)} ", part, maxsplit=1)[0]
    return re.findall(r"```\w*\n(.*?)```", part, re.S)


def test_the_readme_is_at_most_250_lines():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, (f"README.md has {lines} lines (at most {MAX_LINES}): move measurements to "
                                "BENCHMARKS.md and detail to DETAILS.md or LAYOUT.md")


@pytest.mark.parametrize("guide", GUIDES)
def test_every_repository_path_in_backticks_exists(guide):
    paths = repository_paths((ROOT / guide).read_text(encoding="utf-8"), top_level())
    assert paths, f"{guide} names no repository path in backticks: is the check still reading it?"
    missing = sorted({p for p in paths if not (ROOT / p).exists()})
    assert not missing, f"{guide} names paths that do not exist: {missing}"


def test_the_readme_test_command_is_the_one_ci_runs():
    """.ci/run runs the README's test command on a clean clone, with the nox the README installs."""
    readme = README.read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    [test] = code_blocks(readme, "## Test")
    assert test.strip() == "nox -s tests", f"the README's test command is {test.strip()!r}"
    assert re.search(r"^\S*nox -s tests$", ci, re.M), ".ci/run does not run `nox -s tests`"
    build = code_blocks(readme, "## Build")[0].split("\n")
    assert build[:2] == ["pip install nox==2026.10.20", "nox -s docs"], build
    pin = re.search(r"pip install -q (nox==\S+)", ci)
    assert pin and f"pip install {pin.group(1)}" == build[0], ".ci/run installs another nox than the README's"


@pytest.mark.parametrize("guide", ["README.md", "LAYOUT.md"])
def test_every_name_in_the_layout_exists(guide):
    [tree] = code_blocks((ROOT / guide).read_text(encoding="utf-8"), "## Layout" if guide == "README.md" else "# Layout")
    paths = layout_paths(tree)
    assert len(paths) > 10, f"{guide}'s layout names only {paths}: is the check still reading it?"
    missing = [p for p in paths if not (ROOT / p).exists()]
    assert not missing, f"{guide}'s layout names paths that do not exist: {missing}"


def test_the_layout_names_every_module():
    """The other way round: every tracked module of the extension and of tools/ has its line in
    LAYOUT.md's tree (kb's largest module once had none, review A7)."""
    [tree] = code_blocks((ROOT / "LAYOUT.md").read_text(encoding="utf-8"), "# Layout")
    named = set(layout_paths(tree))
    listed = subprocess.run(["git", "ls-files", "docs/_ext/kb", "tools"], cwd=ROOT, capture_output=True, text=True)
    modules = [p for p in listed.stdout.split() if p.endswith((".py", ".sh"))]
    assert len(modules) > 40, modules
    missing = [p for p in modules if p not in named and (ROOT / p).exists()]
    assert not missing, f"LAYOUT.md does not name these modules: {missing}"
