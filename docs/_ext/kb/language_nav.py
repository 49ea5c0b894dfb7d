"""kb.language_nav: a reader can move between the languages of the site on every page.

1. A switch on every page (template ``kb-lang-switch.html``) opens the same page in each other
   language of ``kb_languages``; ``kb.js`` carries the reader's section (``#anchor``) along.
   Its label and tooltip are written in the language it leads to.
2. Every page names its versions in all languages with ``<link rel="alternate" hreflang>``
   (``x-default``: the source language); absolute when ``html_baseurl`` is set, else relative.
3. On the 404 page, which a server shows at any missing address, the switch leads to the other
   language's 404 page by its absolute path (``kb.notfound.urls_prefix``).

The sitemap (with the same alternates) is sphinx-sitemap's (``conf.py``). The switch and the
page-level alternates are ours: the site's languages are sibling builds (``en/``, ``zh_CN/``),
which the theme's own switchers do not model, and no maintained extension writes ``hreflang``
links into the pages.
"""

from __future__ import annotations

from .languages import language_url, others
from .notfound import urls_prefix


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


def switch_url(app, pagename: str, code: str) -> str:
    if pagename == app.config.notfound_pagename:
        return urls_prefix(app.config.html_baseurl, code) + f"{pagename}.html"
    return language_url(pagename, code)


def on_html_page_context(app, pagename: str, templatename: str, context: dict, doctree) -> None:
    context["kb_lang_switches"] = [
        {"url": switch_url(app, pagename, entry["code"]), "hreflang": entry["hreflang"], "label": entry["label"],
         "title": entry["switch"]}
        for entry in others(app.config)
    ]
    context["metatags"] = context.get("metatags", "") + "\n".join(alternates(app, pagename)) + "\n"


def setup(app):
    app.connect("html-page-context", on_html_page_context)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
