"""The pages' ``>>>`` examples (kb.examples): pytest collects every page that has them and runs
each page's examples in one process (``nox -s doctest``, ``nox -s tests``); an example whose output
differs fails with the page and the line; the Chinese page shows the same examples, byte for byte;
and the cheat sheet (reference/rosetta) has its rows, each a PyTorch and a JAX session and a link."""

from __future__ import annotations

import doctest
import html
import re
import subprocess
import sys

import polib
import pytest

from tools.site import LANGUAGES, ROOT, source_pages

DOCS = ROOT / "docs"
LOCALES = DOCS / "locales"
EXAMPLE_LINE = re.compile(r"^[ \t]*>>> ", re.M)
PYCON_FENCE = re.compile(r"^([ \t]*)(?:[*-] )*(?:- )?(`{3,})pycon\n(.*?)^[ \t]*\2[ \t]*$", re.M | re.S)
PAGES = [name for name in source_pages() if EXAMPLE_LINE.search((DOCS / f"{name}.md").read_text(encoding="utf-8"))]
FIXTURE = ROOT / "tests" / "fixtures" / "doctest" / "wrong-output.md"


def pycon_blocks(text: str) -> list[str]:
    """The text of each fenced ``pycon`` block of a page, its indentation and trailing blank lines
    removed (as kb.examples shows it).

    >>> pycon_blocks("a\\n\\n```pycon\\n>>> 1\\n1\\n\\n```\\n* - ```pycon\\n    >>> 2\\n    2\\n\\n    ```\\n")
    ['>>> 1\\n1', '>>> 2\\n2']
    """
    blocks = []
    for match in PYCON_FENCE.finditer(text):
        lines = match.group(3).split("\n")
        indent = min((len(line) - len(line.lstrip(" ")) for line in lines if line.strip()), default=0)
        blocks.append("\n".join(line[indent:] for line in lines).rstrip())
    return blocks


def test_the_pages_with_examples_are_the_ones_expected():
    """The reference pages that carry ``>>>`` examples; a page that gains some is named here."""
    assert set(PAGES) == {"reference/rosetta", "reference/glossary", "reference/faq"}, PAGES


def test_pytest_collects_each_page_with_examples_as_one_doctest():
    """``--doctest-glob=*.md`` (pyproject.toml) over ``docs``: one item per page that has examples,
    so that a page's examples share one process, and none for a page without."""
    result = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0", "docs"],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    collected = sorted(re.findall(r"^docs/(\S+)\.md::\S+\.md$", result.stdout, re.M))
    assert collected == sorted(PAGES), result.stdout[-3000:]


def test_a_wrong_output_fails_with_the_page_and_the_line():
    """tests/fixtures/doctest/wrong-output.md expects ``[3, 2, 1]`` from ``sorted({3, 1, 2})``: pytest,
    with this project's settings, fails and names the file and the line of that example, and shows
    what was expected and what came instead."""
    text = FIXTURE.read_text(encoding="utf-8")
    line = text.split("\n").index(">>> sorted({3, 1, 2})") + 1
    relative = FIXTURE.relative_to(ROOT).as_posix()
    result = subprocess.run([sys.executable, "-m", "pytest", "-n", "0", relative],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-3000:]
    assert f"{relative}:{line}: DocTestFailure" in result.stdout, result.stdout[-3000:]
    assert re.search(r"Expected:\n\s+\[3, 2, 1\]\nGot:\n\s+\[1, 2, 3\]", result.stdout), result.stdout[-3000:]
    assert "1 failed" in result.stdout


def test_a_warning_fails_an_example():
    """tests/fixtures/doctest/warning.md prints what it expects but warns: tools/pytest_pages.py
    makes the warning an error, so the example fails at its line."""
    fixture = FIXTURE.with_name("warning.md")
    line = fixture.read_text(encoding="utf-8").split("\n").index(
        '>>> warnings.warn("this call is deprecated", DeprecationWarning, stacklevel=1)') + 1
    relative = fixture.relative_to(ROOT).as_posix()
    result = subprocess.run([sys.executable, "-m", "pytest", "-n", "0", relative],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-3000:]
    assert f"{relative}:{line}: UnexpectedException" in result.stdout, result.stdout[-3000:]
    assert "DeprecationWarning: this call is deprecated" in result.stdout


def test_gettext_leaves_the_examples_out_of_the_catalogues():
    """Sphinx extracts no code block for translation unless ``gettext_additional_targets`` asks for
    it (literal-block, doctest-block): the Chinese page then shows the English page's examples."""
    import conf

    targets = set(getattr(conf, "gettext_additional_targets", []))
    assert not targets & {"literal-block", "doctest-block"}, targets


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_the_catalogue_keeps_each_example_byte_for_byte(page, language):
    """No entry of the page's catalogue holds a line of an example, unless its translation is the
    English itself: an example's code and output are never translated."""
    catalogue = polib.pofile(str(LOCALES / language / "LC_MESSAGES" / f"{page}.po"))
    examples = doctest.DocTestParser().get_examples((DOCS / f"{page}.md").read_text(encoding="utf-8"))
    assert examples
    lines = {line.strip() for example in examples for line in (example.source + example.want).splitlines()
             if line.strip()}
    changed = [entry.msgid for entry in catalogue if entry.msgstr and entry.msgstr != entry.msgid
               and (EXAMPLE_LINE.search(entry.msgid) or entry.msgid.strip() in lines)]
    assert not changed, f"{page}: translated example lines: {changed}"


def built_blocks(page_html: str) -> list[str]:
    """The text of each ``pycon`` block of a built page.

    >>> built_blocks('<div class="highlight-pycon notranslate"><div class="highlight"><pre><span></span>'
    ...              '<span class="gp">&gt;&gt;&gt; </span>1<span class="go">1</span>\\n</pre></div></div>')
    ['>>> 11']
    """
    blocks = re.findall(r'<div class="highlight-pycon notranslate"><div class="highlight"><pre>(.*?)</pre>', page_html, re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", block)).rstrip("\n") for block in blocks]


@pytest.mark.parametrize("page", PAGES)
def test_the_built_pages_show_the_same_examples(site, page):
    """Each language's page shows every example of the English source, byte for byte, without the
    blank line before the closing fence (kb.examples); in any order, since the Chinese glossary
    lists its terms in pinyin order (kb.pinyin_order)."""
    source = pycon_blocks((DOCS / f"{page}.md").read_text(encoding="utf-8"))
    for language in LANGUAGES:
        shown = built_blocks((site / language / f"{page}.html").read_text(encoding="utf-8"))
        assert sorted(shown) == sorted(source), f"{language}/{page}.html: the examples differ from docs/{page}.md"


ROW = re.compile(r"^\* - (`{3,})pycon\n(.*?)^    \1\n  - \1pycon\n(.*?)^    \1\n  - ([^\n]*)$", re.M | re.S)
LABEL = re.compile(r"^\(([A-Za-z0-9_-]+)\)=[ \t]*$", re.M)


def test_the_cheat_sheet_has_its_rows():
    """reference/rosetta: at least 120 rows, in tables of the ``kb-cheatsheet`` class, each under a
    heading with a label; each row a PyTorch session, a JAX session and a link to an existing label."""
    text = (DOCS / "reference" / "rosetta.md").read_text(encoding="utf-8")
    labels = {label for md in DOCS.rglob("*.md") for label in LABEL.findall(md.read_text(encoding="utf-8"))}
    preface, *sections = re.split(r"^(?=\([A-Za-z0-9_-]+\)=\n## )", text, flags=re.M)
    assert ":::{list-table}" not in preface
    rows, groups = [], 0
    for section in sections:
        tables = section.split(":::{list-table}")[1:]
        groups += bool(tables)
        for table in tables:
            options, body = table.split("\n\n", 1)
            assert ":class: kb-cheatsheet" in options, options
            rows += ROW.findall(body.split("\n:::\n")[0])
    assert groups >= 10 and len(rows) >= 120, (groups, len(rows))
    problems = []
    for _, torch_side, jax_side, link in rows:
        if not re.search(r"\btorch\b|\bF\.|\bnn\.|lr_scheduler|torch_", torch_side):
            problems.append(f"no PyTorch call: {torch_side.strip()[:60]}")
        if "torch" in jax_side or ">>> " not in jax_side:
            problems.append(f"not a JAX session: {jax_side.strip()[:60]}")
        target = re.fullmatch(r"\{ref\}`[^`<]+<([A-Za-z0-9_-]+)>`", link.strip())
        if not target or target.group(1) not in labels:
            problems.append(f"link to no label: {link}")
    assert not problems, "\n".join(problems)
