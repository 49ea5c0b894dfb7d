"""kb.languages: the site's one language table, read from ``conf.py``.

1. ``kb_languages`` in ``conf.py`` lists every language the site is built in, source language
   first, each with: ``hreflang`` (the HTML language tag), ``og_locale`` (Open Graph),
   ``label`` (its own name, shown on the switch to it), ``switch`` (the switch's tooltip, written
   in that language), ``title`` (the site title), ``author`` (the footer's author line, see
   ``kb.theme_words``) and ``source`` (whether it is the source language: only its build may run
   snippets, ``kb.mode``; the others read its records).
   ``nox`` reads the same table (``import conf``), so adding a language is one entry there and
   one folder of catalogues.
2. A table entry missing a field, or a build language that is not in the table, stops the build at
   once with a message that says what to add.
3. The build's ``html_title`` is its language's ``title``.
4. ``language(config)`` is the build's entry; ``others(config)`` the remaining languages, in
   table order; ``language_url`` the relative address of a page in another language's build.
"""

from __future__ import annotations

from typing import Any

from sphinx.errors import ConfigError

FIELDS = ("hreflang", "og_locale", "label", "switch", "title", "author", "source")


def check_table(table: dict[str, dict[str, Any]], language: str) -> list[str]:
    """What is wrong with a language table for a build in ``language`` (empty: nothing).

    >>> check_table({"en": {"hreflang": "en", "og_locale": "en_US", "label": "English", "author": "A",
    ...              "switch": "Read this page in English", "title": "T", "source": True}}, "fr")
    ["the build's language 'fr' is not in kb_languages (conf.py); add an entry for it"]
    >>> check_table({"en": {"label": "English"}}, "en")
    ["kb_languages['en'] (conf.py) lacks hreflang, og_locale, switch, title, author, source"]
    """
    problems = []
    for code, entry in table.items():
        missing = [name for name in FIELDS if name not in entry]
        if missing:
            problems.append(f"kb_languages[{code!r}] (conf.py) lacks {', '.join(missing)}")
    if language not in table:
        problems.append(f"the build's language {language!r} is not in kb_languages (conf.py); add an entry for it")
    return problems


def language(config) -> dict[str, Any]:
    return {"code": config.language, **config.kb_languages[config.language]}


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
