"""kb.differences: a code cell can highlight the lines in which its program differs from another one.

The site's programs are complete on purpose (each runs as copied), so a program that takes the one
before it a step further repeats most of it: the data-parallel training step repeats the
single-device one, the training step's parity test repeats the port's. A reader who has read the
first should see at once what the next one changes.

1. ``:differs-from: ../../snippets/parallel/train_single.py`` (a path from the page, like ``:load:``)
   on a code cell highlights, in the cell's code, each line that is new or changed against that
   program (``difflib``; blank lines are not highlighted), with Pygments' own line highlighting.
2. A line above the code says so in the build's language: how many lines are highlighted and
   against which program, linked to the first page that shows it.
3. A target outside the snippets folder, a missing file or the cell's own program is a build
   error at the page and line (``-W`` makes it fail), as is a target identical to the cell's
   program (there would be nothing to highlight).

Why our own code: Flax's ``codediff`` directive shows two blocks written inline in the page side by
side, and JAX's ``tagged-block`` cuts one tagged region out of a file; this site's code comes from
snippet files that MyST-NB executes, and neither Sphinx nor MyST-NB compares two of them.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.util import logging

from .page import cell_options, code_cells, site_plan
from .translations import _

logger = logging.getLogger(__name__)
NOTE_CLASS = "kb-differs-from"


def changed_lines(base: str, text: str) -> list[int]:
    """The 1-based lines of ``text`` that are new or changed against ``base``, blank lines left out.

    >>> changed_lines("a\\nb\\nc\\n", "a\\nB\\nc\\n\\nd\\n")
    [2, 5]
    """
    old, new = base.splitlines(), text.splitlines()
    lines = []
    for tag, _i1, _i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag in ("replace", "insert"):
            lines += [j + 1 for j in range(j1, j2) if new[j].strip()]
    return lines


def _source_block(cell: nodes.Element) -> nodes.literal_block | None:
    for child in cell.children:
        if isinstance(child, nodes.container) and child.get("nb_element") == "cell_code_source":
            return next(iter(child.findall(nodes.literal_block)), None)
    return None


def highlight_differences(app, doctree: nodes.document) -> None:
    env = app.env
    root = Path(app.srcdir).parent
    snippets = (Path(app.srcdir) / app.config.kb_snippets_dir).resolve()
    page = Path(env.doc2path(env.docname))
    for cell in code_cells(doctree):
        options = cell_options(cell)
        target = options.get("differs-from")
        if not target:
            continue
        path = (page.parent / str(target)).resolve()
        own = options.get("load")
        block = _source_block(cell)
        problem = None
        if not path.is_relative_to(snippets):
            problem = f"':differs-from: {target}' is outside {snippets.name}/"
        elif not path.is_file():
            problem = f"':differs-from: {target}' does not exist"
        elif own and path == (root / own).resolve():
            problem = f"':differs-from: {target}' names the cell's own program"
        elif block is None:
            problem = "':differs-from:' on a cell whose code was not loaded"
        if problem is None:
            lines = changed_lines(path.read_text(encoding="utf-8"), block.astext())
            if not lines:
                problem = f"':differs-from: {target}': the cell's program has no line that differs from it"
        if problem is not None:
            logger.warning(f"{problem} (page {env.docname})", location=cell)
            continue
        block["highlight_args"] = {**block.get("highlight_args", {}), "hl_lines": lines}
        label = nodes.literal(path.name, path.name)
        first = next(iter(site_plan(app.srcdir, app.config).pages_of(path.relative_to(root).as_posix())), None)
        if first:
            label = addnodes.pending_xref("", label, refdomain="std", reftype="doc", reftarget="/" + first,
                                          refexplicit=True, refdoc=env.docname)
        template = (_("Highlighted: the line that differs from {program}.") if len(lines) == 1
                    else _("Highlighted: the {count} lines that differ from {program}."))
        before, _sep, after = str(template).partition("{program}")
        note = nodes.paragraph(classes=[NOTE_CLASS])
        note += nodes.Text(before.format(count=len(lines)))
        note += label
        note += nodes.Text(after.format(count=len(lines)))
        cell.parent.insert(cell.parent.index(cell), note)


def setup(app):
    app.connect("doctree-read", highlight_differences)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
