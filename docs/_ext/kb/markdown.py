"""kb.markdown: every page as Markdown beside its HTML, in its language, and ``llms.txt``.

Many readers ask an assistant instead of searching; an assistant reads Markdown better than a
themed HTML page, and the MyST source (``_sources/``) is no substitute: it is English on every
language's site, and its code cells are ``:load:`` lines, not code.

1. In every HTML build, each page's doctree as the HTML writer gets it (translated in a translated build, with the
   outputs its snippets printed, the figures' translated alt text) is also written as Markdown to
   ``<page>.md`` beside ``<page>.html``. The conversion is sphinx-markdown-builder's translator
   (``MarkdownTranslator``, a maintained Sphinx extension); kb adds only what it does not know: a
   code cell becomes a fenced ``python`` block holding its snippet, each output a fenced ``text``
   block (a figure: an image with its alt text), a ``>>>`` example in a table cell (the cheat
   sheet's rows, kb.examples) one code span per line, since a Markdown table cell holds no fenced
   block, a tab set one labelled block per tab, and the
   interface pieces that mean nothing outside the page (hidden figure words, the folded
   downloads list) are left out, while the box that says what the page ran with is kept. Links
   between pages point at the other pages' ``.md``. Running the markdown *builder* instead would
   cost one more Sphinx run per language, reading and resolving every page again.
2. The theme's download menu (sphinx-book-theme) offers that file as its ``.md`` entry, in place
   of the English MyST source, with a tooltip in the page's language (``kb.translations``).
3. ``llms.txt`` in each language's folder (the llmstxt.org format: the site's title, a one-line
   summary, then one list of links per section in the order of the table of contents, each page
   with its description, ``kb.page_meta``) points at these ``.md`` pages, with titles and
   descriptions in the build's language. The root ``llms.txt`` (``tools.root_pages``, run by nox,
   from ``docs/_root/llms.template.txt`` and ``kb_languages``) points at every language's list.

4. The prose of each page's notebook (``kb.downloads``) is this Markdown too, cut where the
   code cells stand (``notebook_markdown``), so that a notebook speaks the page's language; its
   links point at the site's pages (absolute with ``html_baseurl``), and the downloads line is
   left out (it offers the notebook itself).

Why our own ``llms.txt``: sphinx-llms-txt (0.7.1) builds its list and ``llms-full.txt`` from
``_sources/``, the English MyST of every language whose code cells are ``:load:`` lines; it
writes the full file whenever that folder exists, and without copied sources it writes nothing.
The site copies no sources (``html_copy_source = False``): the download menu offers the
Markdown in their place.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urljoin

from docutils import nodes
from sphinx_markdown_builder.translator import MarkdownTranslator

from .language_nav import page_url
from .page import ancestors, page_relative
from .translations import _

SKIP_CLASSES = {"kb-figure-strings", "kb-downloads", "headerlink", "toctree-wrapper"}
CELL = "KBNOTEBOOKCODECELL"  # where a code cell stands, in the Markdown of a page's notebook


def md_uri(refuri: str) -> str:
    """An internal link to another page's HTML, pointed at its Markdown; other links as they are.

    >>> md_uri("../core/jit.html#core-jit-example"), md_uri("jit.html"), md_uri("https://x.org/a.html")
    ('../core/jit.md#core-jit-example', 'jit.md', 'https://x.org/a.html')
    >>> md_uri("#local"), md_uri("../_images/x.svg")
    ('#local', '../_images/x.svg')
    """
    if re.match(r"^[a-z][a-z0-9+.-]*:", refuri):
        return refuri
    path, sep, fragment = refuri.partition("#")
    if path.endswith(".html"):
        path = path[: -len(".html")] + ".md"
    return path + sep + fragment


def notebook_uri(refuri: str, page: str) -> str:
    """A link of a page as its notebook writes it: resolved against the page's address ``page``
    (absolute with ``html_baseurl``), else relative to the notebook's folder (``_kb/notebooks/<page's folder>``).

    >>> notebook_uri("../reference/b.html#x", "https://h.org/kb/zh_CN/core/jit.html")
    'https://h.org/kb/zh_CN/reference/b.html#x'
    >>> notebook_uri("../_images/x.svg", ""), notebook_uri("#local", ""), notebook_uri("https://x.org/", "")
    ('../../../_images/x.svg', '#local', 'https://x.org/')
    """
    if re.match(r"^[a-z][a-z0-9+.-]*:", refuri) or refuri.startswith("#"):
        return refuri
    return urljoin(page, refuri) if page else "../../" + refuri


class _Builder:
    """What MarkdownTranslator asks of its builder, answered for one page of an HTML build."""

    download_dir = "_downloads"

    def __init__(self, app, docname: str):
        self.app, self.config, self.env = app, app.config, app.env
        self.current_doc_name = docname
        self.sec_numbers = {}

    def get_target_uri(self, docname: str, typ: str | None = None) -> str:
        return f"{docname}.md"

    def image_uri(self, uri: str) -> str:
        """Where the HTML build copied an image (``_images/``), relative to this page."""
        images = getattr(self.app.builder, "images", {})
        if uri not in images:
            return uri
        return page_relative(self.current_doc_name, "_images/" + images[uri])


class KBMarkdownTranslator(MarkdownTranslator):
    """sphinx-markdown-builder's translator, taught MyST-NB's cells and sphinx-design's tab sets.
    ``link`` writes a URI (``md_uri`` for the page's Markdown); ``cells``: a code cell becomes the
    line ``CELL`` and the downloads line is left out (the notebook's prose)."""

    link = staticmethod(md_uri)
    cells = False

    def unknown_visit(self, node):
        """Nodes it does not know (sphinx-design's, MyST-NB's, ours): their text, without markup."""

    def unknown_departure(self, node):
        pass

    def _skip(self, node) -> bool:
        return bool(SKIP_CLASSES & set(node.get("classes", [])))

    def dispatch_visit(self, node):
        if not isinstance(node, nodes.Element):
            return super().dispatch_visit(node)
        if self._skip(node):
            raise nodes.SkipNode
        if self.cells and (node.get("nb_element") == "cell_code" or node.get("kb_slot") == "downloads"):
            if node.get("nb_element") == "cell_code":
                self.add(CELL, prefix_eol=2, suffix_eol=2)
            raise nodes.SkipNode
        if isinstance(node, nodes.raw):  # the theme's and kb's HTML pieces
            raise nodes.SkipNode
        if isinstance(node, nodes.literal_block):
            self._fence(node)
            raise nodes.SkipNode
        if isinstance(node, nodes.reference) and node.get("refuri"):
            node["refuri"] = self.link(node["refuri"])
        if "tab_label" in type(node).__name__ or "sd-tab-label" in node.get("classes", []):
            self.add(f"**{node.astext()}**", prefix_eol=2, suffix_eol=2)
            raise nodes.SkipNode
        if isinstance(node, nodes.image):
            self.add(f"![{node.get('alt', '')}]({self.link(self.builder.image_uri(node['uri']))})", prefix_eol=2, suffix_eol=2)
            raise nodes.SkipNode
        return super().dispatch_visit(node)

    def _fence(self, node: nodes.literal_block) -> None:
        """A code cell's source as fenced Python, an output as fenced text (longer fences when
        the text itself holds backticks); a block in a table cell as one code span per line."""
        if any(isinstance(a, nodes.entry) for a in ancestors(node)):
            self.add("\n".join(code_span(line) if line.strip() else "" for line in node.astext().rstrip("\n").split("\n")))
            raise nodes.SkipNode
        in_output = any(isinstance(a, nodes.container) and a.get("nb_element") == "cell_code_output"
                        for a in ancestors(node))
        language = "text" if in_output else (node.get("language") or "text")
        if language in ("ipython3", "ipython", "python3", "default"):
            language = "python"
        if language in ("none", "myst-ansi"):
            language = "text"
        text = node.astext().rstrip("\n")
        fence = "```"
        while fence in text:
            fence += "`"
        self.add(f"{fence}{language}\n{text}\n{fence}", prefix_eol=2, suffix_eol=2)


def code_span(line: str) -> str:
    """One line of code as a Markdown code span that a table cell can hold: a longer backtick
    fence where the line has backticks, ``|`` escaped.

    >>> code_span(">>> x.shape"), code_span("a `b` | c")
    ('`>>> x.shape`', '`` a `b` \\\\| c ``')
    """
    line = line.replace("|", "\\|")
    fence = "`"
    while fence in line:
        fence += "`"
    pad = " " if fence != "`" or line.startswith("`") or line.endswith("`") else ""
    return f"{fence}{pad}{line}{pad}{fence}"


def page_markdown(app, doctree: nodes.document, docname: str, translator=KBMarkdownTranslator) -> str:
    """The Markdown of one resolved page (the doctree is not changed)."""
    copy = doctree.deepcopy()
    copy.settings = doctree.settings
    writer = translator(copy, _Builder(app, docname))
    copy.walkabout(writer)
    return squeeze_blank_lines(writer.astext()).strip() + "\n"


def notebook_markdown(app, doctree: nodes.document, docname: str) -> list[str]:
    """The prose of a page's notebook, in the build's language: the Markdown before each code cell
    and after the last one (one more part than the page has code cells; a part may be empty)."""
    page = page_url(app, docname, app.config.language) if app.config.html_baseurl else ""

    class Notebook(KBMarkdownTranslator):
        cells = True

        def link(self, refuri: str) -> str:
            return notebook_uri(refuri, page)

    return [part.strip() for part in page_markdown(app, doctree, docname, Notebook).split(CELL)]


def squeeze_blank_lines(text: str) -> str:
    """Runs of blank lines become one, except inside fenced blocks (a snippet keeps its own).

    >>> squeeze_blank_lines("a\\n\\n\\n\\nb\\n```python\\nx\\n\\n\\ny\\n```\\n\\n\\nc")
    'a\\n\\nb\\n```python\\nx\\n\\n\\ny\\n```\\n\\nc'
    """
    parts = re.split(r"(^(`{3,})[a-z]*\n.*?\n\2$)", text, flags=re.S | re.M)
    out = []
    for i, part in enumerate(parts):
        if i % 3 == 0:
            out.append(re.sub(r"\n{3,}", "\n\n", part))
        elif i % 3 == 1:
            out.append(part)
    return "".join(out)


def page_markdown_and_menu(app, pagename, templatename, context, doctree) -> None:
    """Write the page's Markdown (once the HTML builder has placed its images), and make the
    theme's ``.md`` download entry point at it, in the page's language."""
    if doctree is None or app.builder.format != "html":
        return
    out = Path(app.outdir) / f"{pagename}.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page_markdown(app, doctree, pagename), encoding="utf-8")
    for button in context.get("header_buttons", []):
        if button.get("label") != "download-buttons":
            continue
        for entry in button.get("buttons", []):
            if entry.get("label") == "download-source-button":
                entry["url"] = context["pathto"](f"{pagename}.md", 1)
                entry["text"] = ".md"
                entry["tooltip"] = str(_("This page as Markdown, with its code and outputs"))


def first_sentence(text: str) -> str:
    """The first sentence of a page's description (``kb.page_meta`` cuts it at 300 characters).

    >>> first_sentence("One rule. Then more."), first_sentence("第一句。第二句。"), first_sentence("cut mid")
    ('One rule.', '第一句。', 'cut mid…')
    """
    match = re.match(r"(.+?[。？！])", text) or re.match(r"(.+?[.?!])(?:\s|$)", text)
    return match.group(1) if match else (text + "…" if text else "")


def llms_txt(app, exception) -> None:
    """Write this language's ``llms.txt`` at the end of an HTML build."""
    if exception is not None or app.builder.format != "html":
        return
    env, root = app.env, app.config.root_doc

    def title(doc: str) -> str:
        return env.titles[doc].astext() if doc in env.titles else doc

    def entry(doc: str) -> str:
        note = first_sentence(env.metadata.get(doc, {}).get("og:description", ""))
        return f"- [{title(doc)}]({doc}.md)" + (f": {note}" if note else "")

    lines = [f"# {app.config.kb_languages[app.config.language]['title']}", ""]
    summary = env.metadata.get(root, {}).get("og:description", "")
    if summary:
        lines += [f"> {summary}", ""]
    lines += [str(_("Each link is a page of this site as Markdown: its prose, its code cells as Python, "
                    "and the outputs they printed when the site was built.")), ""]
    top = env.toctree_includes.get(root, [])
    sections = [doc for doc in top if env.toctree_includes.get(doc)]  # a section: an index with pages
    lines += [f"## {title(root)}", "", entry(root), *[entry(doc) for doc in top if doc not in sections], ""]
    for section in sections:
        lines += [f"## {title(section)}", "", entry(section)]
        lines += [entry(doc) for doc in env.toctree_includes[section]]
        lines.append("")
    (Path(app.outdir) / "llms.txt").write_text("\n".join(lines), encoding="utf-8")


def setup(app):
    app.setup_extension("sphinx_markdown_builder")
    app.connect("build-finished", llms_txt)
    app.connect("html-page-context", page_markdown_and_menu, priority=600)  # after the theme's buttons (501)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
