"""Unit tests of kb.search_zh (the browser tests run the search itself)."""

from __future__ import annotations

import json
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


def test_the_query_splitter_reads_what_readers_type(tmp_path):
    """Before it is cut, a query becomes the text the site writes: traditional characters the
    simplified ones (the project's table, the pairs this site needs), full-width letters ASCII, and
    in a Chinese query a glossary term typed in English the Chinese term (the project's glossary),
    but not in a pasted English error line nor inside a name. A particle (和) is dropped rather than
    taken into a fragment of the index (组和), and the word right after 怎么 (实现) is an action
    asked about, which kb-scorer.js does not let decide which pages are listed."""
    from tools.browser import chromium, serve
    from tools.site import ROOT

    glossary = ROOT / "docs" / "_data" / "glossary.tsv"
    written = search_zh.site_text(ROOT / "docs" / "locales" / "zh_CN" / "LC_MESSAGES", glossary)
    code = search_zh.splitter_code(search_zh.traditional_pairs(search_zh.TRADITIONAL, written))
    assert {"顯显", "佔占", "麼么"} <= {code[i:i + 2] for i in range(len(code))}
    words = {"english": search_zh.english_terms(glossary)}
    terms = ["显存", "占满", "代码", "计时", "梯度裁剪", "梯度检查点", "参数组", "参数", "组和", "优化器", "缓存", "实现",
             "梯度累积", "显存不够", "设备"]
    (tmp_path / "splitter.js").write_text(code, encoding="utf-8")
    (tmp_path / "split.html").write_text(
        "<html><head><meta charset=\"utf-8\"></head><body><script>var Search = {_index: {terms: "
        + json.dumps({term: 0 for term in terms}, ensure_ascii=False) + ", titleterms: {}, docnames: ['a', 'b']}}; "
        f"var KB_SEARCH_WORDS = {json.dumps(words, ensure_ascii=False)};</script>"
        "<script src='splitter.js'></script></body></html>", encoding="utf-8")
    queries = ["顯存被佔滿了怎麼辦", "怎么给ＪＡＸ代码计时？", "gradient clipping 怎么写", "用Gradient Checkpointing省显存",
               "Number of devices 8", "jax.devices() 的设备", "参数组和优化器", "KV缓存怎么实现", "显存不够时怎么做梯度累积"]
    with serve(tmp_path) as base, chromium() as browser:
        page = browser.new_page()
        page.goto(f"{base}/split.html")
        split = page.evaluate("(queries) => queries.map((q) => [splitQuery(q), [...KB_PHRASING]])", queries)
    assert split == [[["显存", "占满"], []], [["JAX", "代码", "计时"], []], [["梯度裁剪"], []],
                     [["梯度检查点", "显存"], []], [["Number", "of", "devices", "8"], []],
                     [["jax", "devices", "设备"], []], [["参数组", "优化器"], []], [["KV", "缓存", "实现"], ["实现"]],
                     [["显存不够", "梯度累积"], []]], split
