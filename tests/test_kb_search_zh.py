"""Unit tests of kb.search_zh (the browser tests run the search itself)."""

from __future__ import annotations

import sys
from types import SimpleNamespace

import pytest
from sphinx.errors import ExtensionError

from kb import search_zh


def test_chinese_build_requires_jieba(monkeypatch):
    """Without jieba Sphinx silently indexes no Chinese words; our build refuses instead. Which
    builds use jieba is the language table's ``search`` field (conf.py), not the language code."""
    import conf

    monkeypatch.setitem(sys.modules, "jieba", None)  # import jieba -> ImportError
    table = conf.kb_languages
    assert table["zh_CN"]["search"] == "jieba" and table["en"]["search"] == "sphinx"
    app = SimpleNamespace(config=SimpleNamespace(language="zh_CN", kb_languages=table),
                          builder=SimpleNamespace(format="html"))
    with pytest.raises(ExtensionError, match="needs jieba"):
        search_zh.on_builder_inited(app)
    app.config.language = "en"
    search_zh.on_builder_inited(app)  # the English build does not need it
    app.config.language = "zh_CN"
    app.config.kb_languages = {**table, "zh_CN": {**table["zh_CN"], "search": "sphinx"}}
    search_zh.on_builder_inited(app)  # nor a language whose entry asks for Sphinx's own search


def test_the_query_splitter_is_the_javascript_file():
    code = search_zh.KbSearchChinese.js_splitter_code
    assert "var splitQuery" in code and "KB_QUERY_STOPWORDS" in code
    assert "%(" not in code, "the splitter is plain JavaScript now, not a Python format string"


def test_the_query_splitter_drops_question_words_whole(tmp_path):
    """The splitter matches the index's words, longest first, and the question words too: 不一样,
    which no page holds as a word, is dropped whole instead of leaving the index word 不一 (part
    of 不一致) to decide which pages are listed; 知道 (怎么知道…) is dropped like 怎么."""
    from tools.browser import chromium, serve

    (tmp_path / "splitter.js").write_text(search_zh.KbSearchChinese.js_splitter_code, encoding="utf-8")
    (tmp_path / "split.html").write_text(
        "<html><head><meta charset=\"utf-8\"></head><body><script>var Search = {_index: {terms: {'矩阵': 0, '结果': 1, '不一': 2, '函数': 0, "
        "'又编译': 1}, titleterms: {}, docnames: ['a', 'b', 'c']}};</script><script src='splitter.js'></script></body></html>", encoding="utf-8")
    with serve(tmp_path) as base, chromium() as browser:
        page = browser.new_page()
        page.goto(f"{base}/split.html")
        split = page.evaluate("(queries) => queries.map((q) => splitQuery(q))",
                              ["TPU 上矩阵结果和 CPU 不一样", "怎么知道函数为什么又编译了"])
    assert split == [["TPU", "矩阵", "结果", "CPU"], ["函数", "又编译"]]
