"""The Chinese reads as written in Chinese: what the native review of December 2026 counted by
script stays at zero on every page catalogue (TRANSLATING.md, "Read as written in Chinese";
tools/zh_style.py). Each check is shown to fail on a small example first."""

from __future__ import annotations

from types import SimpleNamespace as Entry

import pytest

from tools.site import LOCALES
from tools.zh_style import catalogue_problems, heading_problems, long_sentences, page_catalogues, word_problems

CATALOGUES = page_catalogues()


def test_the_checks_fail_on_broken_examples():
    entries = [Entry(msgid="How do I shard it?", msgstr="如何分片？"),
               Entry(msgid="x", msgstr="本项目固定的 JAX 里，manager 会等待。"),
               Entry(msgid="y", msgstr="长" * 111 + "。")]
    assert len(heading_problems(entries, {"How do I shard it?"})) == 1
    assert len(word_problems(entries)) == 2
    assert len(long_sentences(entries)) == 1


def test_every_page_catalogue_is_checked():
    assert len(CATALOGUES) > 50


@pytest.mark.parametrize("catalogue", CATALOGUES, ids=lambda p: p.relative_to(LOCALES).as_posix())
def test_the_chinese_reads_as_written_in_chinese(catalogue):
    problems = catalogue_problems(catalogue)
    assert not problems, "\n".join(problems)
