"""kb.language_nav: a reader can move between the languages of the site on every page.

1. A switch on every page (template ``kb-lang-switch.html``) opens the same page in each other
   language of ``kb_languages``; ``kb.js`` carries the reader's section (``#anchor``) along.
   Its label and tooltip are written in the language it leads to.
2. Every page names its versions in all languages with ``<link rel="alternate" hreflang>``
   (``x-default``: the source language); absolute when ``html_baseurl`` is set, else relative.
3. Each language's build writes ``sitemap.xml`` listing its pages, each with its alternates.

The site's languages are sibling builds (``en/``, ``zh_CN/``), which sphinx-sitemap and the theme's
own switchers do not model; hence our own code.
"""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape

from .languages import language_url, others


def page_url(app, pagename: str, code: str) -> str:
    """The address of ``pagename`` in the build of language ``code``."""
    base = (app.config.html_baseurl or "").rstrip("/")
    return f"{base}/{code}/{pagename}.html" if base else language_url(pagename, code)


def alternates(app, pagename: str) -> list[str]:
    table = app.config.kb_languages
    tags = [f'<link rel="alternate" hreflang="{entry["hreflang"]}" href="{page_url(app, pagename, code)}">'
            for code, entry in table.items()]
    source = next(iter(table))
    tags.append(f'<link rel="alternate" hreflang="x-default" href="{page_url(app, pagename, source)}">')
    return tags


def on_html_page_context(app, pagename: str, templatename: str, context: dict, doctree) -> None:
    context["kb_lang_switches"] = [
        {"url": language_url(pagename, entry["code"]), "hreflang": entry["hreflang"], "label": entry["label"],
         "title": entry["switch"]}
        for entry in others(app.config)
    ]
    context["metatags"] = context.get("metatags", "") + "\n".join(alternates(app, pagename)) + "\n"


def write_sitemap(app, exception) -> None:
    """A sitemap of this language's pages, each with its alternates in every language."""
    if exception is not None or app.builder.format != "html":
        return
    base = (app.config.html_baseurl or "").rstrip("/")
    table = app.config.kb_languages
    rows = []
    for page in sorted(app.env.found_docs):
        loc = f"{base}/{app.config.language}/{page}.html" if base else f"{page}.html"
        links = "".join(f'<xhtml:link rel="alternate" hreflang="{entry["hreflang"]}" '
                        f'href="{escape(page_url(app, page, code))}"/>' for code, entry in table.items())
        rows.append(f"<url><loc>{escape(loc)}</loc>{links}</url>")
    (Path(app.outdir) / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' + "\n".join(rows) + "\n</urlset>\n",
        encoding="utf-8",
    )


def setup(app):
    app.connect("html-page-context", on_html_page_context)
    app.connect("build-finished", write_sitemap)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
