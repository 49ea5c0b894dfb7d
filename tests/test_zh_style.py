"""The Chinese reads as written in Chinese: what the native reviews of December 2026 counted by
script stays at zero on every page catalogue (TRANSLATING.md, "Read as written in Chinese";
tools/zh_style.py), and the words the themes and our extension show on a Chinese page (tooltips,
footer, the copy button) are mainland Chinese with full-width punctuation. Each check is shown to
fail on a small example first."""

from __future__ import annotations

import collections
import gettext
import re
from pathlib import Path
from types import SimpleNamespace as Entry

import polib
import pytest

from tools.glossary import Term
from tools.site import DOCS, LOCALES, ROOT
from tools.zh_style import (catalogue_problems, generated_classes, generated_lines, generated_problems, halfwidth_quotes,
                            heading_problems, interface_problems, long_sentences, page_catalogues, percent_spaces,
                            pinned_problems, quote_spaces, taiwan_problems, unglossed_terms, word_problems)

CATALOGUES = page_catalogues()
SITE_THEME_WORDS = LOCALES / "zh_CN" / "LC_MESSAGES" / "sphinx.po"  # kb.theme_words
INTERFACE = DOCS / "_ext" / "kb" / "locales" / "zh_CN" / "LC_MESSAGES" / "kb.po"


def test_the_checks_fail_on_broken_examples():
    entries = [Entry(msgid="How do I shard it?", msgstr="如何分片？"),
               Entry(msgid="x", msgstr="本项目固定的 JAX 里，manager 会等待。"),
               Entry(msgid="y", msgstr="长" * 111 + "。")]
    assert len(heading_problems(entries, {"How do I shard it?"})) == 1
    assert len(word_problems(entries)) == 2
    assert len(long_sentences(entries)) == 1

    # The review of 2026-12b: P1, P2, P4, T4, T8, T10, U1, each broken, then mended.
    broken = [Entry(msgid='Open the "Steps" track.', msgstr='打开 "Steps" 轨道。', tcomment=""),
              Entry(msgid='A line starting with "without".', msgstr="以 “without” 开头的一行。", tcomment=""),
              Entry(msgid="80 % of the run.", msgstr="整次运行的 80 %。", tcomment=""),
              Entry(msgid="In the pinned JAX, it fails.", msgstr="在固定的 JAX 版本里会失败。", tcomment=""),
              Entry(msgid="eager mode runs every call", msgstr="即时执行模式下每次调用都会运行", tcomment=""),
              Entry(msgid="Print to PDF", msgstr="列印成 PDF", tcomment=""),
              Entry(msgid="Autotuning times kernels.", msgstr="自动调优给内核计时。", tcomment="")]
    mended = [Entry(msgid='Open the "Steps" track.', msgstr="打开“Steps”轨道，地址填 `\"host:9999\"`。", tcomment=""),
              Entry(msgid='A line starting with "without".', msgstr="以“without”开头的一行。", tcomment=""),
              Entry(msgid="80 % of the run.", msgstr="整次运行的 80%。", tcomment=""),
              Entry(msgid="In the pinned JAX, it fails.", msgstr="在本站固定版本的 JAX 里会失败。", tcomment=""),
              Entry(msgid="eager mode runs every call", msgstr="eager 模式下每次调用都会运行", tcomment=""),
              Entry(msgid="Print to PDF", msgstr="打印为 PDF，解方程式", tcomment=""),
              Entry(msgid="Autotuning times kernels.", msgstr="自动调优（autotuning）给内核计时。", tcomment="")]
    terms = [Term("autotuning", "自动调优", True, "自动调优（autotuning）")]
    for check, count in ((halfwidth_quotes, 1), (quote_spaces, 1), (percent_spaces, 1), (pinned_problems, 1),
                         (word_problems, 1), (taiwan_problems, 1), (lambda e: unglossed_terms(e, terms), 1)):
        assert len(check(broken)) == count, check
        assert check(mended) == [], check
    # Not prose: a heading or a table cell is never glossed, so nothing asks for a gloss there.
    assert unglossed_terms(broken[-1:], terms, skip={"Autotuning times kernels."}) == []
    assert len(interface_problems("作者： JAX 知识库作者 复制成功!")) == 2


def test_the_check_of_generated_text_fails_on_the_lines_of_review_2026_12c():
    """The built pages' generated lines (tests/test_site.py runs the check on the built site): the
    TPU box's label and a header line as the review of 2026-12c found them (C1, C2), then as kb
    words them now, from kb.po."""
    from kb.accelerator_runs import ACCELERATOR_RUN_CLASS

    broken = ('<div class="kb-accelerator-run"><p>同一个程序在另一台机器上（Linux x86_64, 13 CPU cores, TPU v5 lite；后端 tpu；'
              'jax 0.10.2（本站固定的版本是 0.12.0.1）；2026-12-06）打印的结果：</p><pre>1.0 ms</pre></div>')
    mended = ('<div class="kb-accelerator-run"><p>同一个程序在另一台机器上打印的结果如下。机器：TPU v5e，x86_64 Linux，13 核 CPU；'
              '后端：tpu；版本：jax 0.10.2（本站固定版本为 0.12.0.1）；日期：2026-12-06。</p><pre>1.0 ms, 2 (x)</pre></div>')
    assert ACCELERATOR_RUN_CLASS in generated_classes()
    [line] = generated_lines(broken, generated_classes())
    found = " | ".join(generated_problems(line))
    assert "half-width ','" in found and "brackets inside brackets" in found and "English 'cores'" in found, found
    assert [generated_problems(line) for line in generated_lines(mended, generated_classes())] == [[]]
    header = '<div class="kb-header"><p><strong>TPU v5e，jax 0.10.2</strong>：<a>4 个程序中 0 个运行通过；3 个 versions differ</a></p></div>'
    assert "English 'versions' in a Chinese line" in " | ".join(generated_problems(generated_lines(header, ("kb-header",))[0]))


def test_every_page_catalogue_is_checked():
    assert len(CATALOGUES) > 50


@pytest.mark.parametrize("catalogue", CATALOGUES, ids=lambda p: p.relative_to(LOCALES).as_posix())
def test_the_chinese_reads_as_written_in_chinese(catalogue):
    problems = catalogue_problems(catalogue)
    assert not problems, "\n".join(problems)


# --- The interface: words of the themes, of kb.theme_words and of the copy button ----------------------

def book_theme_locales() -> Path:
    import sphinx_book_theme

    return Path(sphinx_book_theme.get_html_theme_path()) / "static" / "locales"


def theme_catalogues() -> list[Path]:
    """The installed themes' Chinese catalogues: the book theme's ('booktheme') and the pydata
    theme's ('sphinx', found for zh_CN under zh). The pydata theme is found as Sphinx finds it, through
    its ``sphinx.html_themes`` entry point: the site never imports it (the book theme does)."""
    from importlib.metadata import entry_points

    (pydata,) = [ep for ep in entry_points(group="sphinx.html_themes") if ep.name == "pydata_sphinx_theme"]
    package = Path(str(pydata.dist.locate_file("pydata_sphinx_theme")))
    found = [book_theme_locales() / "zh_CN" / "LC_MESSAGES" / "booktheme.po",
             package / "locale" / "zh" / "LC_MESSAGES" / "sphinx.po"]
    assert all(path.is_file() for path in found), found
    return found


def translations(path: Path) -> dict[str, str]:
    return {e.msgid: e.msgstr for e in polib.pofile(str(path)) if e.msgid and e.msgstr}


def test_the_themes_show_mainland_chinese():
    """Every word of the themes' Chinese catalogues, as the site shows it (its own sphinx.po first),
    is free of Taiwan usage: the book theme writes 列印成 PDF for "Print to PDF" (review U1)."""
    site = translations(SITE_THEME_WORDS)
    problems = [f"{path.name}: {msgid!r} → {site.get(msgid, text)!r}: {problem}"
                for path in theme_catalogues() for msgid, text in translations(path).items()
                for problem in interface_problems(site.get(msgid, text)) if problem.startswith("Taiwan")]
    assert not problems, "\n".join(problems) + "\n(translate these in docs/locales/zh_CN/LC_MESSAGES/sphinx.po)"


def test_our_interface_words_are_mainland_chinese_with_full_width_punctuation():
    """sphinx.po and kb.po: what the site itself writes on every Chinese page."""
    problems = [f"{path.relative_to(ROOT)}: {problem}" for path in (SITE_THEME_WORDS, INTERFACE)
                for text in translations(path).values() for problem in interface_problems(text)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("theme_first", [True, False], ids=["theme-registered-first", "site-first"])
def test_the_site_catalogue_comes_before_the_book_themes(tmp_path, monkeypatch, theme_first):
    """kb.theme_words.site_words_first: the book theme's own catalogue answers from the site's
    sphinx.po first ("Print to PDF" → 打印为 PDF) and from the theme's for the rest, whichever of the
    two Sphinx sets up first. This is what a build does, without the build."""
    from sphinx import locale

    from kb.theme_words import THEME_CATALOGUE, site_words_first

    monkeypatch.setattr(locale, "translators", collections.defaultdict(gettext.NullTranslations))
    (tmp_path / "zh_CN" / "LC_MESSAGES").mkdir(parents=True)
    polib.pofile(str(SITE_THEME_WORDS)).save_as_mofile(str(tmp_path / "zh_CN" / "LC_MESSAGES" / "sphinx.mo"))
    register_theme = lambda: locale.init([book_theme_locales()], "zh_CN", THEME_CATALOGUE)  # noqa: E731
    if theme_first:
        register_theme()
    assert site_words_first([tmp_path], "zh_CN")
    if not theme_first:
        register_theme()
    translate = locale.get_translation(THEME_CATALOGUE)
    assert translate("Print to PDF") == "打印为 PDF"
    assert translate("Download source file") == translations(theme_catalogues()[0])["Download source file"]
    assert not site_words_first([tmp_path], "en")  # the source language keeps the theme's words


def test_the_footer_reads_as_chinese():
    """The author line and the copyright line of a Chinese page, as kb.theme_words writes them from
    conf.py, kb.po and sphinx.po (review U2): no space after a full-width colon, 作者 once, no
    half-width comma."""
    import conf
    from kb.theme_words import copyright_line

    author = conf.kb_languages["zh_CN"]["author"]
    interface, theme = translations(INTERFACE), translations(SITE_THEME_WORDS)
    byline = interface["By {author}"].format(author=author)
    holder = copyright_line(conf.copyright, conf.author, author, interface["{years}, {holder}"])
    line = theme["© Copyright %(copyright)s."] % {"copyright": holder}
    assert byline.count("作者") == 1 and author in byline, byline
    assert line == f"版权所有 © {conf.copyright.split(',')[0]} {author}", line
    assert not interface_problems(byline) + interface_problems(line) + re.findall(r"\d,", line)


def test_the_copy_button_speaks_mainland_chinese():
    """sphinx-copybutton's zh-CN messages, with the overrides of kb.js (review U4: 复制成功! → 复制成功！).
    kb.js changes them through copybutton.js's own globals, so those must still be there."""
    import sphinx_copybutton

    source = (Path(sphinx_copybutton.__file__).parent / "_static" / "copybutton.js_t").read_text(encoding="utf-8")
    assert re.search(r"^const messages = \{", source, re.M) and re.search(r"^let iconCheck = `", source, re.M), \
        "sphinx-copybutton no longer declares `messages` and `iconCheck`: update docs/_static/kb.js"
    upstream = dict(re.findall(r"'(\w+)'\s*:\s*'([^']*)'", re.search(r"'zh-CN'\s*:\s*\{(.*?)\}", source, re.S).group(1)))
    ours = (DOCS / "_static" / "kb.js").read_text(encoding="utf-8")
    overrides = dict(re.findall(r'(\w+)\s*:\s*"([^"]*)"', re.search(r'"zh-CN"\s*:\s*\{(.*?)\}', ours, re.S).group(1)))
    assert overrides and set(overrides) <= set(upstream), (overrides, upstream)
    shown = {**upstream, **overrides}
    problems = [problem for text in shown.values() for problem in interface_problems(text)]
    assert not problems, "\n".join(problems) + "\n(override them in KB_COPY_MESSAGES, docs/_static/kb.js)"
