"""kb.notfound: each language's build has a 404 page in that language.

sphinx-notfound-page writes ``404.html`` (the theme's page, with its sidebar), and rewrites every
link and asset on it to an absolute path under ``notfound_urls_prefix``, so the page works at
whatever missing address a server shows it (``/en/core/gone/deep.html``). It knows one language
and one prefix per build; this module supplies both for the build's language:

1. ``notfound_urls_prefix`` is the path of ``html_baseurl`` (``/`` when unset) followed by the
   language's folder: ``/en/``, ``/zh_CN/``, or ``/kb/en/`` for ``https://host/kb/``.
2. ``notfound_context`` (title and body) is written with ``kb.translations``, so the Chinese 404
   page is Chinese; the body links to the start page of the same language.
"""

from __future__ import annotations

import html
from urllib.parse import urlsplit

from .translations import _


def site_path(base_url: str | None) -> str:
    """The path at which the site's root is served, ending with ``/``.

    >>> site_path(""), site_path("https://kb.example.org"), site_path("https://host/docs/kb/")
    ('/', '/', '/docs/kb/')
    """
    path = urlsplit(base_url or "").path.rstrip("/")
    return f"{path}/"


def urls_prefix(base_url: str | None, language: str) -> str:
    """
    >>> urls_prefix("", "zh_CN"), urls_prefix("https://host/kb", "en")
    ('/zh_CN/', '/kb/en/')
    """
    return f"{site_path(base_url)}{language}/"


def on_config_inited(app, config) -> None:
    config.notfound_urls_prefix = urls_prefix(config.html_baseurl, config.language)


def on_builder_inited(app) -> None:
    """The page's words, once the build's translations are loaded."""
    title = str(_("Page not found"))
    home = urls_prefix(app.config.html_baseurl, app.config.language) + f"{app.config.root_doc}.html"
    text = _("There is no page at this address. It may have moved when the site was reorganised.")
    body = (f"<h1>{html.escape(title)}</h1>\n<p>{html.escape(str(text))}</p>\n"
            f'<p><a href="{html.escape(home)}">{html.escape(str(_("Go to the start page")))}</a></p>')
    app.config.notfound_context = {"title": title, "body": body}


def setup(app):
    app.setup_extension("notfound.extension")
    app.connect("config-inited", on_config_inited)
    app.connect("builder-inited", on_builder_inited)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
