"""kb.theme_words: the theme speaks the build's language too.

1. The search box's placeholder (``search_bar_text``, a theme option) is set at ``config-inited``
   from ``kb.translations``.
2. Words the theme's templates pass through gettext but the theme's own catalogue leaves
   untranslated ("System Settings", "Color mode", "© Copyright ...") are translated the way Sphinx
   documents for any project: a ``sphinx.po`` in the project's ``locale_dirs``
   (``docs/locales/<language>/LC_MESSAGES/sphinx.po``), which Sphinx compiles and reads before the
   theme's catalogue. No code here.
3. Words the theme's templates write in English without gettext (the tooltips of the sidebar
   toggles, the ``aria-label`` of two navigation landmarks) are replaced in each written page of a
   translated build at the end of the build, attribute by attribute, from ``kb.translations``.
   Overriding the templates would mean copying the theme's code; this replaces only the words.
4. The footer's author line: ``kb_languages`` gives each language its ``author``.
5. The sidebar's expand toggles (a ``<summary>`` holding only a chevron) get an accessible name in
   every language, "Pages of <section>", so that a screen reader says what each one opens
   (axe-core's ``summary-name``: a summary without text is a serious violation).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from .languages import language
from .translations import _


def hard_coded_words() -> dict[str, str]:
    """The English words the theme hard-codes, with their translations in this build."""
    words = {
        "Toggle primary sidebar": _("Toggle primary sidebar"),
        "Toggle secondary sidebar": _("Toggle secondary sidebar"),
        "Main": _("Main"),
        "Page": _("Page"),
    }
    return {english: str(text) for english, text in words.items()}


def replace_attributes(page: str, words: dict[str, str]) -> str:
    """``page`` with each ``title`` / ``aria-label`` whose value is a key of ``words`` translated.

    >>> replace_attributes('<nav aria-label="Main"><a title="Main">x</a></nav><p>Main</p>', {"Main": "主导航"})
    '<nav aria-label="主导航"><a title="主导航">x</a></nav><p>Main</p>'
    """
    for english, text in words.items():
        if text != english:
            for attribute in ("title", "aria-label"):
                page = page.replace(f'{attribute}="{english}"', f'{attribute}="{html.escape(text, quote=True)}"')
    return page


TOGGLE_RE = re.compile(r'(<a class="[^"]*\breference internal\b[^"]*" href="[^"]*">)((?:(?!</a>).)*?)(</a>\s*<details(?: open="open")?>\s*)'
                       r'<summary>(?=\s*<span class="toctree-toggle")', re.S)


def name_toggles(page: str, template: str) -> str:
    """Each sidebar toggle (a summary with only the chevron) named after the section it opens.

    >>> name_toggles('<a class="reference internal" href="core/index.html">JAX <code>core</code></a><details>'
    ...              '<summary><span class="toctree-toggle" role="presentation"></span></summary>', "Pages of {section}")
    '<a class="reference internal" href="core/index.html">JAX <code>core</code></a><details><summary aria-label="Pages of JAX core"><span class="toctree-toggle" role="presentation"></span></summary>'
    >>> name_toggles('<a class="current reference internal" href="#">X</a><details open="open"><summary>'
    ...              '<span class="toctree-toggle"></span>', "{section}")
    '<a class="current reference internal" href="#">X</a><details open="open"><summary aria-label="X"><span class="toctree-toggle"></span>'
    """
    def named(match: re.Match) -> str:
        section = " ".join(html.unescape(re.sub(r"<[^>]+>", "", match.group(2))).split())
        label = html.escape(template.format(section=section), quote=True)
        return f'{match.group(1)}{match.group(2)}{match.group(3)}<summary aria-label="{label}">'

    return TOGGLE_RE.sub(named, page)


def on_config_inited(app, config) -> None:
    config.html_theme_options = {**config.html_theme_options, "search_bar_text": str(_("Search..."))}
    entry = language(config)
    config.copyright = config.copyright.replace(config.author, entry["author"])
    config.author = entry["author"]


def translate_pages(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    # The source language's build shows the templates' own words; every build names the toggles.
    words = {} if language(app.config)["execute"] else hard_coded_words()
    toggles = str(_("Pages of {section}"))
    for page in Path(app.outdir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        translated = name_toggles(replace_attributes(text, words), toggles)
        if translated != text:
            page.write_text(translated, encoding="utf-8")


def setup(app):
    app.connect("config-inited", on_config_inited, priority=600)  # after kb.languages checks the table
    app.connect("build-finished", translate_pages)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
