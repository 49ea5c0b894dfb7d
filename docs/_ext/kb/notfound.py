"""kb.notfound: each language's build has a 404 page in that language.

``404.html`` (template ``kb-404.html``) says the page does not exist and links to the start page,
with its words from ``kb.translations``. Its links are relative, so they work when the server shows
it at its own address (``/en/404.html``); sphinx-notfound-page would make them absolute to one
base URL, which the two sibling language builds do not share.
"""

from __future__ import annotations

from .translations import _


def add_page(app, config) -> None:
    config.html_additional_pages = {**config.html_additional_pages, "404": "kb-404.html"}


def on_html_page_context(app, pagename: str, templatename: str, context: dict, doctree) -> None:
    if pagename != "404":
        return
    title = str(_("Page not found"))
    context.update(title=title, kb_404_title=title,
                   kb_404_text=str(_("There is no page at this address. It may have moved when the site was reorganised.")),
                   kb_404_home=str(_("Go to the start page")))


def setup(app):
    app.connect("config-inited", add_page)
    app.connect("html-page-context", on_html_page_context)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
