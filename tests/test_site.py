"""The built site, in both languages: links and anchors resolve, every code cell is a snippet,
each executed page says once what it ran with, and the Chinese build executed nothing."""

from __future__ import annotations

import html
import importlib.metadata
import json
import re

import pytest

from kbtools import LANGUAGES, SNIPPETS, broken_internal_links

CELL_RE = re.compile(r'<div class="cell_input[^"]*">.*?<pre>(.*?)</pre>', re.S)
TAG_RE = re.compile(r"<[^>]+>")


def page_files(site, language):
    root = site / language
    skip = {"genindex.html", "search.html"}
    return [p for p in sorted(root.rglob("*.html"))
            if p.name not in skip and not {"_static", "_sources", "_downloads", "_kb"} & set(p.relative_to(root).parts)]


def cell_sources(page):
    return [html.unescape(TAG_RE.sub("", m)) for m in CELL_RE.findall(page.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("language", LANGUAGES)
def test_internal_links_and_anchors(site, language):
    problems = broken_internal_links(site / language)
    assert not problems, "\n".join(problems[:50])


def test_root_index_offers_both_languages(site):
    text = (site / "index.html").read_text(encoding="utf-8")
    for language in LANGUAGES:
        assert f'href="{language}/index.html"' in text
        assert (site / language / "index.html").exists()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_code_cell_is_a_snippet(site, language):
    """What a reader copies from the page is exactly a snippet, and snippets run alone
    (test_snippets), so every code cell on the site runs when copied into a fresh process."""
    snippets = {p.read_text(encoding="utf-8").strip(): p for p in SNIPPETS.rglob("*.py")}
    seen = 0
    for page in page_files(site, language):
        for source in cell_sources(page):
            seen += 1
            assert source.strip() in snippets, f"{page}: a code cell is not a snippet:\n{source[:300]}"
    assert seen, f"no code cells found in the {language} build"


@pytest.mark.parametrize("language", LANGUAGES)
def test_provenance_once_per_executed_page(site, language):
    jax_version = importlib.metadata.version("jax")
    for page in page_files(site, language):
        text = page.read_text(encoding="utf-8")
        boxes = text.count('class="kb-provenance')
        if cell_sources(page):
            assert boxes == 1, f"{page}: {boxes} provenance boxes, expected 1"
            box = text[text.index('class="kb-provenance'):][:800]
            assert f"jax {jax_version}" in box, f"{page}: provenance does not name jax {jax_version}"
            assert re.search(r"(CPU|GPU|NVIDIA|TPU)[^<]*×\d+", box), f"{page}: provenance names no devices"
        else:
            assert boxes == 0, f"{page}: provenance on a page without code"


def test_chinese_build_executed_nothing(site):
    report = json.loads((site / "zh_CN" / "_kb_build.json").read_text(encoding="utf-8"))
    assert report["language"] == "zh_CN"
    assert report["executed"] == [], f"the Chinese build executed {report['executed']}"


def test_chinese_pages_are_chinese(site):
    for page in page_files(site, "zh_CN"):
        text = page.read_text(encoding="utf-8")
        assert '<html lang="zh-CN"' in text or "lang=\"zh_CN\"" in text, f"{page}: not marked as Chinese"
        main = text[text.find('<main'):]
        assert re.search(r"[\u4e00-\u9fff]", TAG_RE.sub("", main)), f"{page}: no Chinese text"


def test_translations_are_applied(site):
    """A translated string that Sphinx could not apply (for instance a msgstr that parses as a
    list, or whose markup differs) silently leaves the English on the Chinese page: find it."""
    import polib

    from kbtools import catalogs, LOCALES

    problems = []
    for po in catalogs():
        doc = po.relative_to(LOCALES / "zh_CN" / "LC_MESSAGES").with_suffix("")
        page = site / "zh_CN" / f"{doc}.html"
        if not page.exists():
            continue
        prose = re.sub(r"<pre>.*?</pre>", " ", page.read_text(encoding="utf-8"), flags=re.S)  # code, outputs
        text = " ".join(html.unescape(TAG_RE.sub(" ", prose)).split())
        for entry in polib.pofile(str(po)):
            msgid = " ".join(entry.msgid.split())
            plain = not re.search(r"[`*_\[\]{}<>$|\\]", msgid)
            kept = msgid in " ".join(entry.msgstr.split())  # e.g. glossary terms: 分片（sharding）
            if plain and entry.msgstr and not kept and len(msgid.split()) >= 3 and msgid in text:
                problems.append(f"zh_CN/{doc}.html still shows the English: {msgid[:80]!r}")
    assert not problems, "\n".join(problems)
