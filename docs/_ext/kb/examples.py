"""kb.examples: ``>>>`` examples that read as a Python session and run as doctests.

A page shows a result that needs no program (the cheat sheet's rows, the glossary's and the FAQ's
one-liners) as a fenced ``pycon`` block of ``>>>`` examples. pytest runs every page's examples
(``--doctest-glob=*.md`` in ``pyproject.toml``; ``nox -s doctest`` and ``nox -s tests``), and
``doctest`` ends an expected output at a blank line, not at a fence: the last output of a block is
followed by a blank line, or the closing fence would be part of the expected output
(CONTRIBUTING.md, "A `>>>` example").

1. On the page that blank line is noise at the end of every block, so the trailing blank lines of
   each ``pycon`` literal block are removed when the page is read. Code is not translated, so the
   Chinese page shows the same text (``tests/test_doctests.py`` compares the built pages).
2. The copy button copies what a reader types and nothing else: ``conf.py`` gives
   sphinx-copybutton these blocks (``div.highlight-pycon``) and the prompts ``>>> `` and ``... ``,
   and it copies only the lines that start with one, without it.
"""

from __future__ import annotations

from docutils import nodes


def trimmed(text: str) -> str:
    """A block's text without the blank lines after its last line.

    >>> trimmed(">>> 1 + 1\\n2\\n\\n")
    '>>> 1 + 1\\n2'
    >>> trimmed(">>> x = 1\\n\\n>>> x\\n1\\n   \\n")
    '>>> x = 1\\n\\n>>> x\\n1'
    """
    return text.rstrip()


def trim_examples(app, doctree: nodes.document) -> None:
    """Every ``pycon`` block of a page without its trailing blank lines (rawsource and text alike:
    Sphinx highlights a block only when they agree)."""
    for block in doctree.findall(nodes.literal_block):
        if block.get("language") == "pycon":
            text = trimmed(block.astext())
            if text != block.astext():
                block.rawsource = text
                block.children = [nodes.Text(text)]


def setup(app):
    app.connect("doctree-read", trim_examples)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
