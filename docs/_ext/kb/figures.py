"""kb.figures: figures are SVG with their words kept as text, and those words are translated.

1. The runner (``kb.run.runner``, its child ``kb/run/child.py``) has ``plt.show()`` write SVG, with
   text kept as ``<text>`` elements (``svg.fonttype: none``) and stable ids (``svg.hashsalt``). The reader's
   browser draws the letters with its own fonts, so no CJK font is needed on the build machine. A
   snippet copied out of the page needs none of this.
2. Before translation (a transform ahead of Sphinx's ``Locale``), every SVG output of a code cell
   gets its visible words (title, axis labels, legend, annotations: each ``<text>`` that holds a
   letter; tick numbers are left alone) as hidden translatable paragraphs located at the cell.
   The gettext builder extracts them into the page's catalogue like any other string; it reads
   the outputs from the records (``nb_mime_priority_overrides`` in ``conf.py`` makes it pick the
   SVG) and, like every translated build, executes nothing.
3. After translation, where a word has a translation a copy of the SVG with the translated words
   (``<hash>.<language>.svg`` beside the original) replaces it on the page. The hidden paragraphs
   are then removed (kept only for the gettext builder), so no page shows them.
4. Every figure says what it shows to a reader who cannot see it: the code cell's ``:alt:`` option
   (one sentence on what is plotted against what, and what to notice) is one more hidden
   paragraph, so it is translated in the page's catalogue with the figure's words, and becomes the
   image's ``alt`` text in each language. A figure without ``:alt:`` is a build warning (an error
   under ``-W``): without it, the HTML writer would put the image's file name there.

Text inside ``<tspan>`` pieces (matplotlib's mathtext) is not extracted: write figure words as
plain strings, and keep measured values (machine names, numbers) out of them, since a catalogue
entry must not change from one build machine to the next.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path
from xml.sax.saxutils import escape

from docutils import nodes
from sphinx.transforms import SphinxTransform

from sphinx.util import logging

from .accelerator_runs import FIGURES_CLASS
from .page import ancestors, cell_options

logger = logging.getLogger(__name__)

TEXT_RE = re.compile(r"(<text\b[^>]*>)([^<]+)(</text>)")
COMMENT_RE = re.compile(r"<!-- (.*?) -->")
WORD_RE = re.compile(r"[A-Za-z\u3400-\u9fff]")
FIGURE_STRINGS_CLASS = "kb-figure-strings"


def svg_strings(svg: str) -> list[str]:
    """The visible words of an SVG drawn by matplotlib with text kept as text, in order, once each.

    >>> svg_strings('<text x="1">sequence length</text><text x="2">10</text>'
    ...             '<text x="3">A &amp; B</text><text x="4">sequence length</text>')
    ['sequence length', 'A & B']
    """
    found = []
    for match in TEXT_RE.finditer(svg):
        text = html.unescape(match.group(2)).strip()
        if WORD_RE.search(text) and text not in found:
            found.append(text)
    return found


def translate_svg(svg: str, words: dict[str, str]) -> str:
    """``svg`` with each ``<text>`` (and matplotlib's comment naming it) in ``words`` replaced.

    >>> translate_svg('<!-- step --><text x="1">step</text><text x="2">10</text>', {"step": "步数"})
    '<!-- 步数 --><text x="1">步数</text><text x="2">10</text>'
    """
    def text(match: re.Match) -> str:
        original = html.unescape(match.group(2)).strip()
        if original not in words:
            return match.group(0)
        return match.group(1) + escape(words[original]) + match.group(3)

    def comment(match: re.Match) -> str:
        original = match.group(1)
        return f"<!-- {words[original]} -->" if original in words else match.group(0)

    return COMMENT_RE.sub(comment, TEXT_RE.sub(text, svg))


def _svg_file(app, image: nodes.image) -> Path | None:
    """The SVG file of a figure that a code cell's program drew: in the cell's output, or drawn on
    another machine (``kb.accelerator_runs.FIGURES_CLASS``)."""
    uri = image.get("uri", "")
    if not uri.endswith(".svg") or not any(
            isinstance(a, nodes.container) and (a.get("nb_element") == "cell_code_output"
                                                 or FIGURES_CLASS in a.get("classes", []))
            for a in ancestors(image)):
        return None
    path = (Path(app.srcdir) / uri.lstrip("/")).resolve() if uri.startswith("/") else None
    return path if path is not None and path.is_file() else None



def _cell(node: nodes.Node) -> nodes.Node:
    for ancestor in ancestors(node):
        if isinstance(ancestor, nodes.container) and ancestor.get("nb_element") == "cell_code":
            return ancestor
    return node


class FigureStrings(SphinxTransform):
    """2: the words of each SVG figure as hidden translatable paragraphs, before translation."""

    default_priority = 10  # sphinx.transforms.i18n.Locale runs at 20

    def apply(self, **kwargs) -> None:
        for image in list(self.document.findall(nodes.image)):
            path = _svg_file(self.app, image)
            if path is None:
                continue
            words = svg_strings(path.read_text(encoding="utf-8"))
            cell = _cell(image)
            alt = " ".join(str(cell_options(cell).get("alt") or "").split())
            source = cell.source or self.document["source"]
            line = cell.line or image.line
            if not alt:
                logger.warning("a figure needs alt text: add ':alt: <what the figure shows>' to its code cell "
                               "(one sentence: what is plotted against what, and what to notice)",
                               location=(self.env.docname, line))
            box = nodes.container(classes=[FIGURE_STRINGS_CLASS], kb_svg=str(path))
            for word in ([alt] if alt else []) + words:
                para = nodes.paragraph(word, word, kb_msgid=word)
                para.source, para.line = source, line
                box += para
            if alt:
                box[0]["kb_alt"] = True
            image.parent.insert(image.parent.index(image) + 1, box)


class TranslatedFigures(SphinxTransform):
    """3: each figure shows its translated words; the hidden paragraphs go."""

    default_priority = 30  # after Locale (20)

    def apply(self, **kwargs) -> None:
        for box in list(self.document.findall(nodes.container)):
            if FIGURE_STRINGS_CLASS not in box.get("classes", []):
                continue
            image = box.parent[box.parent.index(box) - 1]
            if isinstance(image, nodes.image):
                for para in box.findall(nodes.paragraph):
                    if para.get("kb_alt"):
                        image["alt"] = para.astext()
            words = {p["kb_msgid"]: p.astext() for p in box.findall(nodes.paragraph) if not p.get("kb_alt")}
            words = {original: text for original, text in words.items() if text != original}
            if words and isinstance(image, nodes.image):
                source = Path(box["kb_svg"])
                translated = source.with_name(f"{source.stem}.{self.config.language}.svg")
                content = translate_svg(source.read_text(encoding="utf-8"), words)
                if not translated.is_file() or translated.read_text(encoding="utf-8") != content:
                    tmp = translated.with_name(f".{translated.name}.{os.getpid()}")
                    tmp.write_text(content, encoding="utf-8")
                    os.replace(tmp, translated)
                image["uri"] = "/" + os.path.relpath(translated, self.app.srcdir)
            if self.app.builder.name != "gettext":
                box.parent.remove(box)


def setup(app):
    app.add_transform(FigureStrings)
    app.add_transform(TranslatedFigures)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
