"""Unit tests of kb.search_zh (the browser tests run the search itself)."""

from __future__ import annotations

import sys
from types import SimpleNamespace

import pytest
from sphinx.errors import ExtensionError

from kb import search_zh


def test_chinese_build_requires_jieba(monkeypatch):
    """Without jieba Sphinx silently indexes no Chinese words; our build refuses instead."""
    monkeypatch.setitem(sys.modules, "jieba", None)  # import jieba -> ImportError
    app = SimpleNamespace(config=SimpleNamespace(language="zh_CN"), builder=SimpleNamespace(format="html"))
    with pytest.raises(ExtensionError, match="needs jieba"):
        search_zh.on_builder_inited(app)
    app.config.language = "en"
    search_zh.on_builder_inited(app)  # the English build does not need it


def test_the_query_splitter_is_the_javascript_file():
    code = search_zh.KbSearchChinese.js_splitter_code
    assert "var splitQuery" in code and "KB_QUERY_STOPWORDS" in code
    assert "%(" not in code, "the splitter is plain JavaScript now, not a Python format string"
