"""kb.languages: the language table of conf.py holds every field the code reads, with values the code
knows (a bad entry stops the build with a message that names it), and the site's root page and root
llms.txt (tools.root_pages) offer every language of the table."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from sphinx.errors import ConfigError

import conf
from kb.languages import CHOICES, FIELDS, check_table, on_config_inited


def config(table, language="en"):
    return SimpleNamespace(kb_languages=table, language=language, html_title=None)


def test_the_site_table_is_complete():
    assert check_table(conf.kb_languages, "en") == []
    assert all(set(FIELDS) <= set(entry) for entry in conf.kb_languages.values())


@pytest.mark.parametrize("field", sorted(CHOICES))
def test_an_unknown_value_stops_the_build_with_a_clear_message(field):
    table = {code: dict(entry) for code, entry in conf.kb_languages.items()}
    table["zh_CN"][field] = "klingon"
    with pytest.raises(ConfigError, match=rf"kb_languages\['zh_CN'\] \(conf.py\): {field} 'klingon' is not one of "
                                          + ", ".join(CHOICES[field])):
        on_config_inited(None, config(table))


def test_a_missing_field_stops_the_build():
    table = {code: dict(entry) for code, entry in conf.kb_languages.items()}
    del table["zh_CN"]["index_order"]
    with pytest.raises(ConfigError, match=r"kb_languages\['zh_CN'\] \(conf.py\) lacks index_order"):
        on_config_inited(None, config(table))


def test_a_good_table_sets_the_title():
    settings = config(conf.kb_languages, "zh_CN")
    on_config_inited(None, settings)
    assert settings.html_title == conf.kb_languages["zh_CN"]["title"]


# --- The site's root page and root llms.txt (tools.root_pages) ---------------------------------------

THIRD = {"fr": {"hreflang": "fr-FR", "og_locale": "fr_FR", "label": "Français", "switch": "Lire cette page en français",
                "title": "JAX pour les utilisateurs de PyTorch", "author": "Les auteurs", "source": False,
                "pages": "les pages en français", "script": "latin", "search": "sphinx",
                "index_order": "alphabetical", "glossary": "english"}}


@pytest.mark.parametrize("table", [conf.kb_languages, {**conf.kb_languages, **THIRD}], ids=["site", "with-fr"])
def test_the_root_files_offer_every_language_of_the_table(table):
    from tools.root_pages import root_files

    files = root_files(table)
    page, llms = files["index.html"], files["llms.txt"]
    source = next(iter(table))
    assert "$" not in page + llms, "a template field was left unfilled"
    assert f'<html lang="{table[source]["hreflang"]}">' in page
    assert f'<link rel="alternate" hreflang="x-default" href="{source}/index.html">' in page
    for code, entry in table.items():
        assert f'<link rel="alternate" hreflang="{entry["hreflang"]}" href="{code}/index.html">' in page, code
        assert f'<a href="{code}/index.html"' in page and f'>{entry["label"]}</a>' in page, code
        prefix = entry["hreflang"].split("-")[0].lower()
        assert f'if (l.indexOf("{prefix}") === 0)' in page, code
        assert f"- [{entry['label']}]({code}/llms.txt): {entry['pages']}" in llms, code


def test_the_root_page_sends_each_browser_language_to_its_build():
    """The redirect lines: another language sets the target, the source language keeps the default."""
    from tools.root_pages import root_files

    page = root_files(conf.kb_languages)["index.html"]
    assert 'var target = "en/index.html";' in page
    assert 'if (l.indexOf("zh") === 0) { target = "zh_CN/index.html"; break; }' in page
    assert 'if (l.indexOf("en") === 0) { break; }' in page


def test_two_languages_of_one_browser_language_are_refused():
    from tools.root_pages import root_files

    table = {**conf.kb_languages, "zh_TW": {**conf.kb_languages["zh_CN"], "hreflang": "zh-TW"}}
    with pytest.raises(ValueError, match="zh_CN and zh_TW share the browser language 'zh'"):
        root_files(table)
