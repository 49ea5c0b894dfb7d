"""kb.page_meta: what a link preview and a search engine show for a page.

1. A page's description is its first paragraph of prose (not the header box), whitespace folded,
   at most 300 characters; it is kept per page (``DESCRIPTIONS``) when the page is read.
2. Every HTML page gets Open Graph tags (title, type, site name, locale and the other languages'
   locales from ``kb_languages``, description, and ``og:url`` when ``html_baseurl`` is set) and a
   ``<meta name="description">``.
"""

from __future__ import annotations

import html
import re

from docutils import nodes

from .common import PageState, in_header_box
from .language_nav import page_url
from .languages import language, others

DESCRIPTIONS = PageState("descriptions")


def remember_description(app, doctree: nodes.document) -> None:
    first = next((p for p in doctree.findall(nodes.paragraph) if not in_header_box(p)), None)
    if first is not None:
        DESCRIPTIONS.set(app.env, app.env.docname, " ".join(first.astext().split())[:300])


def open_graph(app, pagename: str, context: dict) -> list[str]:
    this = language(app.config)
    title = html.unescape(re.sub(r"<[^>]+>", "", context.get("title") or ""))
    description = DESCRIPTIONS.get(app.env, pagename, "")
    og = [
        ("og:title", title),
        ("og:type", "article"),
        ("og:site_name", app.config.html_title),
        ("og:locale", this["og_locale"]),
        *[("og:locale:alternate", entry["og_locale"]) for entry in others(app.config)],
        ("og:description", description),
    ]
    if app.config.html_baseurl:
        og.append(("og:url", page_url(app, pagename, this["code"])))
    tags = [f'<meta property="{k}" content="{html.escape(v, quote=True)}">' for k, v in og if v]
    if description:
        tags.append(f'<meta name="description" content="{html.escape(description, quote=True)}">')
    return tags


def on_html_page_context(app, pagename: str, templatename: str, context: dict, doctree) -> None:
    context["metatags"] = context.get("metatags", "") + "\n".join(open_graph(app, pagename, context)) + "\n"


def setup(app):
    DESCRIPTIONS.connect(app)
    app.connect("doctree-read", remember_description)
    # After kb.notfound, which sets the 404 page's title.
    app.connect("html-page-context", on_html_page_context, priority=600)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
