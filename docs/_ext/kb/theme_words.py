"""kb.theme_words: the theme speaks the build's language too.

1. The search box's placeholder (``search_bar_text``, a theme option) is set at ``config-inited``
   from ``kb.translations``.
2. Words the theme's templates pass through gettext but the theme's own catalogue leaves
   untranslated ("System Settings", "Color mode", "© Copyright ...") or translates in another
   usage (the book theme's zh_CN "列印成 PDF", Taiwan's word for print) are translated the way Sphinx
   documents for any project: a ``sphinx.po`` in the project's ``locale_dirs``
   (``docs/locales/<language>/LC_MESSAGES/sphinx.po``), which Sphinx compiles and reads before the
   theme's catalogue. The book theme keeps its words in a catalogue of its own ("booktheme"), which
   Sphinx would read alone: ``site_words_first`` puts the same ``sphinx.po`` in front of it.
3. Words the theme's templates write in English without gettext (the tooltips of the sidebar
   toggles, the ``aria-label`` of two navigation landmarks) are replaced in each written page of a
   translated build at the end of the build, attribute by attribute, from ``kb.translations``.
   Overriding the templates would mean copying the theme's code; this replaces only the words.
4. The footer: ``kb_languages`` gives each language its ``author``. The copyright line
   ("2026, <author>" in ``conf.py``) takes the language's form of "{years}, {holder}" (Chinese
   has no comma there), and the theme's byline, "By" + " " + author, is written whole from
   "By {author}" in a translated build (a gettext word and a space cannot make 由…编写).
5. The sidebar's expand toggles (a ``<summary>`` holding only a chevron) get an accessible name in
   every language, "Pages of <section>", so that a screen reader says what each one opens
   (axe-core's ``summary-name``: a summary without text is a serious violation).
"""

from __future__ import annotations

import gettext
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


BYLINE_RE = re.compile(r'(<p class="component-author">)(.*?)(</p>)', re.S)


def write_byline(page: str, byline: str) -> str:
    """``page`` with the theme's author line (``translate('By') author``) replaced by ``byline``.

    >>> write_byline('<p class="component-author">\\n作者： JAX 知识库作者\\n</p>', "由 JAX 知识库作者编写")
    '<p class="component-author">由 JAX 知识库作者编写</p>'
    """
    return BYLINE_RE.sub(lambda m: m.group(1) + html.escape(byline) + m.group(3), page)


def copyright_line(copyright: str, author: str, holder: str, form: str) -> str:
    """``conf.py``'s copyright, "<years>, <author>", with the language's holder in the language's
    ``form`` of "{years}, {holder}"; any other copyright only has the author replaced.

    >>> copyright_line("2026, The authors", "The authors", "JAX 知识库作者", "{years} {holder}")
    '2026 JAX 知识库作者'
    >>> copyright_line("2026, The authors", "The authors", "The authors", "{years}, {holder}")
    '2026, The authors'
    >>> copyright_line("2026 Someone, The authors", "Someone", "某人", "{years} {holder}")
    '2026 某人, The authors'
    """
    years, separator, rest = copyright.partition(", ")
    if separator and rest == author:
        return form.format(years=years, holder=holder)
    return copyright.replace(author, holder)


THEME_CATALOGUE = "booktheme"  # sphinx_book_theme's MESSAGE_CATALOG_NAME


def site_words_first(locale_dirs: list[Path], language_code: str, catalogue: str = THEME_CATALOGUE) -> bool:
    """Make the site's ``sphinx.po`` (compiled by Sphinx to ``sphinx.mo`` in ``locale_dirs``) the
    first catalogue that ``catalogue`` answers from, the theme's own a fallback behind it, whether
    the theme registers its catalogue before or after this runs. False where the site has no
    catalogue for the language (the source language)."""
    from sphinx import locale

    site = None
    for directory in locale_dirs:
        try:
            found = gettext.translation("sphinx", localedir=str(directory), languages=[language_code])
        except OSError:
            continue
        if site is None:
            site = found
        else:
            site.add_fallback(found)
    if site is None:
        return False
    theme = locale.translators.get(("general", catalogue))
    if theme is not None and theme.__class__ is not gettext.NullTranslations:
        site.add_fallback(theme)
    locale.translators[("general", catalogue)] = site
    return True


def on_config_inited(app, config) -> None:
    config.html_theme_options = {**config.html_theme_options, "search_bar_text": str(_("Search..."))}
    entry = language(config)
    config.copyright = copyright_line(config.copyright, config.author, entry["author"], str(_("{years}, {holder}")))
    config.author = entry["author"]
    if config.language:
        site_words_first([Path(app.srcdir) / directory for directory in config.locale_dirs], config.language)


def translate_pages(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    # The source language's build shows the templates' own words; every build names the toggles.
    source = language(app.config)["source"]
    words = {} if source else hard_coded_words()
    byline = None if source else str(_("By {author}")).format(author=app.config.author)
    toggles = str(_("Pages of {section}"))
    for page in Path(app.outdir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        translated = name_toggles(replace_attributes(text, words), toggles)
        if byline is not None:
            translated = write_byline(translated, byline)
        if translated != text:
            page.write_text(translated, encoding="utf-8")


def setup(app):
    app.connect("config-inited", on_config_inited, priority=600)  # after kb.languages checks the table
    app.connect("build-finished", translate_pages)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
