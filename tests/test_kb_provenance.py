"""Unit tests of kb.provenance and its Chinese wording (kb.translations)."""

from __future__ import annotations

import pytest
from sphinx import locale

from kb import provenance, translations

ONE = {"python": "3.12.1", "packages": {"jax": "0.12.0.1", "flax": "0.12.12"}, "machine": "Linux x86_64",
       "cpu_count": 2, "date": "2026-11-29", "devices": [{"backend": "cpu", "count": 1, "kind": "cpu"}]}
EIGHT = ONE | {"devices": [{"backend": "cpu", "count": 8, "kind": "cpu"}]}
SUMMARY = provenance.summarise([ONE, EIGHT])


@pytest.fixture()
def chinese():
    """kb's catalogue loaded for zh_CN, as the Chinese build loads it; English again afterwards."""
    key = ("general", translations.CATALOGUE)
    previous = locale.translators.pop(key, None)  # init() would merge into it, not replace it
    translations.compile_catalogue("zh_CN")
    locale.init([str(translations.LOCALE_DIR)], "zh_CN", translations.CATALOGUE)
    yield
    locale.translators.pop(key, None)
    if previous is not None:
        locale.translators[key] = previous


def test_provenance_in_english():
    en = provenance.provenance_paragraph(SUMMARY, 3.25, 2, 0).astext()
    assert en.startswith("Executed at build time with Python 3.12.1, jax 0.12.0.1, flax 0.12.12")
    assert "CPU ×1, ×8 (emulated; Linux x86_64, 2 cores)" in en and "3.2 s" in en
    assert "its 2 programs ran, 0 of them in processes shared with other programs" in en and "timings" not in en
    assert "nothing else running" in provenance.provenance_paragraph(SUMMARY, 3.25, 2, 1).astext()


def test_provenance_in_chinese(chinese):
    zh = provenance.provenance_paragraph(SUMMARY, 3.25, 2, 1).astext()
    assert zh.startswith("本页构建时的运行环境：Python 3.12.1、jax 0.12.0.1、flax 0.12.12；")
    assert "CPU ×1、×8（模拟设备；x86_64 Linux，2 核）" in zh and "共耗时 3.2 秒" in zh
    assert "没有其他程序同时运行" in zh
