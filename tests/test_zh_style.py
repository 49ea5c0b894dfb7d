"""The Chinese reads as written in Chinese: what the native reviews of December 2026 counted by
script stays at zero on every page catalogue (TRANSLATING.md, "Read as written in Chinese";
tools/zh_style.py). Each check is shown to fail on a small example first."""

from __future__ import annotations

from types import SimpleNamespace as Entry

import pytest

from tools.glossary import Term
from tools.site import LOCALES
from tools.zh_style import (catalogue_problems, halfwidth_quotes, heading_problems, interface_problems, long_sentences,
                            page_catalogues, percent_spaces, pinned_problems, quote_spaces, taiwan_problems,
                            unglossed_terms, word_problems)

CATALOGUES = page_catalogues()


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


def test_every_page_catalogue_is_checked():
    assert len(CATALOGUES) > 50


@pytest.mark.parametrize("catalogue", CATALOGUES, ids=lambda p: p.relative_to(LOCALES).as_posix())
def test_the_chinese_reads_as_written_in_chinese(catalogue):
    problems = catalogue_problems(catalogue)
    assert not problems, "\n".join(problems)
