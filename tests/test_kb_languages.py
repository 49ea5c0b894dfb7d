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
