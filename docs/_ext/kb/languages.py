"""kb.languages: the site's one language table, read from ``conf.py``.

1. ``kb_languages`` in ``conf.py`` lists every language the site is built in, source language
   first, each with: ``hreflang`` (the HTML language tag), ``og_locale`` (Open Graph),
   ``label`` (its own name, shown on the switch to it), ``switch`` (the switch's tooltip, written
   in that language), ``title`` (the site title), ``author`` (the footer's author line, see
   ``kb.theme_words``), ``source`` (whether it is the source language: only its build may run
   snippets, ``kb.mode``; the others read its records), ``pages`` (what the root ``llms.txt`` says
   of its list of pages, ``tools.root_pages``), and the fields the code branches on, each one of
   the values in ``CHOICES``:

   - ``script``: ``latin`` or ``cjk``. The checks of a built translation that take Latin words
     for English (the interface, Markdown prose, 中文（English） glosses in headings) apply to
     ``cjk`` languages (``tests/test_site.py``).
   - ``search``: ``sphinx`` (Sphinx's search for the language, with the glossary's search words,
     ``kb.search``) or ``jieba`` (Sphinx's Chinese search with a dictionary of the glossary's
     terms and a query splitter, ``kb.search_zh``).
   - ``index_order``: ``alphabetical`` (Sphinx's) or ``pinyin`` (``kb.pinyin_order``).
   - ``glossary``: the column of ``docs/_data/glossary.tsv`` that holds the language's terms,
     ``english`` or ``chinese`` (``kb.search``, ``kb.search_zh``). The columns ``gloss``,
     ``display`` and ``search`` are about the Chinese rendering, and TRANSLATING.md's figure
     conventions and ``tools/zh_style.py`` are rules of mainland Chinese: they serve the languages
     whose ``glossary`` is ``chinese`` (``tests/test_glossary.py``, ``tests/test_zh_style.py``).

   ``nox`` reads the same table (``import conf``): it builds every language in it and writes the
   site's root page and root ``llms.txt`` from it (``tools.root_pages``). So adding a language is
   one entry there and one folder of catalogues, where its behaviour is one of the values above;
   a language that needs another one (a third glossary column, a search for Japanese, a style
   guide of its own) needs that code first.
2. A table entry missing a field or with a value not in ``CHOICES``, or a build language that
   is not in the table, stops the build at once with a message that says what to add.
3. The build's ``html_title`` is its language's ``title``.
4. ``language(config)`` is the build's entry; ``behaviour(config, field)`` its value of a field
   of ``CHOICES``; ``others(config)`` the remaining languages, in table order; ``language_url``
   the relative address of a page in another language's build.
"""

from __future__ import annotations

from typing import Any

from sphinx.errors import ConfigError

FIELDS = ("hreflang", "og_locale", "label", "switch", "title", "author", "source", "pages",
          "script", "search", "index_order", "glossary")
# The fields the code branches on, and the values it knows.
CHOICES = {
    "script": ("latin", "cjk"),
    "search": ("sphinx", "jieba"),
    "index_order": ("alphabetical", "pinyin"),
    "glossary": ("english", "chinese"),
}


def check_table(table: dict[str, dict[str, Any]], language: str) -> list[str]:
    """What is wrong with a language table for a build in ``language`` (empty: nothing).

    >>> en = {"hreflang": "en", "og_locale": "en_US", "label": "English", "author": "A", "pages": "the pages",
    ...       "switch": "Read this page in English", "title": "T", "source": True, "script": "latin",
    ...       "search": "sphinx", "index_order": "alphabetical", "glossary": "english"}
    >>> check_table({"en": en}, "fr")
    ["the build's language 'fr' is not in kb_languages (conf.py); add an entry for it"]
    >>> check_table({"en": {"label": "English"}}, "en")[0].split(" lacks ")[1]
    'hreflang, og_locale, switch, title, author, source, pages, script, search, index_order, glossary'
    >>> check_table({"en": en | {"script": "cyrillic"}}, "en")
    ["kb_languages['en'] (conf.py): script 'cyrillic' is not one of latin, cjk"]
    """
    problems = []
    for code, entry in table.items():
        missing = [name for name in FIELDS if name not in entry]
        if missing:
            problems.append(f"kb_languages[{code!r}] (conf.py) lacks {', '.join(missing)}")
        for name, values in CHOICES.items():
            if name in entry and entry[name] not in values:
                problems.append(f"kb_languages[{code!r}] (conf.py): {name} {entry[name]!r} is not one of "
                                f"{', '.join(values)}")
    if language not in table:
        problems.append(f"the build's language {language!r} is not in kb_languages (conf.py); add an entry for it")
    return problems


def language(config) -> dict[str, Any]:
    return {"code": config.language, **config.kb_languages[config.language]}


def behaviour(config, name: str) -> str:
    """The build language's value of a field in ``CHOICES`` (a build whose language is not in the
    table, which ``on_config_inited`` has stopped, counts as the source language's default)."""
    entry = config.kb_languages.get(config.language or "en")
    return entry[name] if entry else CHOICES[name][0]


def others(config) -> list[dict[str, Any]]:
    return [{"code": code, **entry} for code, entry in config.kb_languages.items() if code != config.language]


def language_url(pagename: str, target: str) -> str:
    """Relative URL of the same page in the language build ``target`` (a sibling folder).

    >>> language_url("core/jit", "zh_CN")
    '../../zh_CN/core/jit.html'
    >>> language_url("index", "en")
    '../en/index.html'
    """
    depth = pagename.count("/") + 1
    return "../" * depth + f"{target}/{pagename}.html"


def on_config_inited(app, config) -> None:
    problems = check_table(config.kb_languages, config.language or "en")
    if problems:
        raise ConfigError("; ".join(problems))
    config.html_title = config.kb_languages[config.language]["title"]


def setup(app):
    app.add_config_value("kb_languages", {}, "env", types=[dict])
    app.connect("config-inited", on_config_inited)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
