"""kb.page_meta: what a link preview and a search engine show for a page.

sphinxext-opengraph writes the Open Graph tags (``og:title``, ``og:type``, ``og:url``,
``og:site_name``, ``og:description``) and ``<meta name="description">``. What it cannot know, this
module gives it:

1. A page's description is its first paragraph of prose, whitespace folded, at most 300
   characters. The extension would start at the top of the page and quote the header box (the
   versions and the list of programs); so the description is put in the page's metadata as
   ``og:description`` (which the extension takes as given) and written as the meta description
   before the extension runs (it then adds none of its own).
2. ``og:url`` is the page's address in this language's folder under ``html_baseurl``. The site
   name is the build language's title from ``kb_languages`` (the extension's default, the
   project name, is English), and ``og:locale`` with one ``og:locale:alternate`` per other
   language comes from the same table (the extension has no locale tags).
"""

from __future__ import annotations

import html

from docutils import nodes

from .page import in_header_box
from .languages import language, others


def description(doctree: nodes.document) -> str:
    """The first paragraph of prose outside the header box, folded, at most 300 characters.

    >>> from docutils.core import publish_doctree
    >>> description(publish_doctree("Title\\n=====\\n\\nFirst   paragraph,\\non two lines.\\n\\nSecond."))
    'First paragraph, on two lines.'
    """
    first = next((p for p in doctree.findall(nodes.paragraph) if not in_header_box(p)), None)
    return " ".join(first.astext().split())[:300] if first is not None else ""


def remember_description(app, doctree: nodes.document) -> None:
    text = description(doctree)
    if text:
        app.env.metadata[app.env.docname]["og:description"] = text


def on_config_inited(app, config) -> None:
    this = language(config)
    config.ogp_site_name = this["title"]
    if config.html_baseurl:  # og:url is this language's address of the page (none in a local build)
        config.ogp_site_url = f'{config.html_baseurl.rstrip("/")}/{this["code"]}/'
    config.ogp_custom_meta_tags = [
        f'<meta property="og:locale" content="{this["og_locale"]}">',
        *[f'<meta property="og:locale:alternate" content="{entry["og_locale"]}">' for entry in others(config)],
    ]


def meta_description(app, pagename: str, templatename: str, context: dict, doctree) -> None:
    text = (context.get("meta") or {}).get("og:description")
    if text:
        context["metatags"] = context.get("metatags", "") + (
            f'<meta name="description" content="{html.escape(text, quote=True)}">\n')


def setup(app):
    app.setup_extension("sphinxext.opengraph")
    # After kb.languages (which checks the table and sets the site title).
    app.connect("config-inited", on_config_inited, priority=600)
    # The first paragraph is read once the header box exists (kb.provenance, at doctree-read).
    app.connect("doctree-read", remember_description, priority=900)
    # Before sphinxext-opengraph (priority 500), which then writes no description of its own.
    app.connect("html-page-context", meta_description, priority=450)
    return {"version": "2.0", "parallel_read_safe": True, "parallel_write_safe": True}
