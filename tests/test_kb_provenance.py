"""Unit tests of kb.provenance and its Chinese wording (kb.translations)."""

from __future__ import annotations

import json

import nbformat
import pytest
from sphinx import locale

from kb import provenance, translations
from kb.common import PROBE_TAG

INFO = {"python": "3.12.1", "packages": {"jax": "0.12.0.1", "flax": "0.12.12"}, "backend": "cpu",
        "device_count": 8, "device_kind": "cpu", "machine": "Linux x86_64", "cpu_count": 2, "date": "2026-11-29"}


def test_move_timing_to_probe_keeps_the_cache_hash_stable():
    probe_output = nbformat.v4.new_output("stream", name="stdout", text=provenance.PROBE_MARKER + json.dumps({"python": "3"}) + "\n")
    cells = [nbformat.v4.new_code_cell("print(1)"), nbformat.v4.new_code_cell("probe", outputs=[probe_output])]
    cells[1].metadata["tags"] = ["remove-input", PROBE_TAG]
    for cell, (start, end) in zip(cells, [("00.000", "01.500"), ("01.600", "01.700")]):
        cell.metadata["execution"] = {"iopub.execute_input": f"2026-01-01T00:00:{start}Z",
                                      "shell.execute_reply": f"2026-01-01T00:00:{end}Z"}
    nb = nbformat.v4.new_notebook(cells=cells)
    provenance.move_timing_to_probe(nb)
    assert all("execution" not in c.metadata for c in nb.cells)  # hashed metadata unchanged
    info = provenance.parse_probe(nb.cells[1].outputs[0]["text"])
    assert info == {"python": "3", "cell_seconds": [1.5]}


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
    en = provenance.provenance_paragraph(INFO, 3.25).astext()
    assert en.startswith("Executed at build time with Python 3.12.1, jax 0.12.0.1, flax 0.12.12")
    assert "CPU ×8 (emulated; Linux x86_64, 2 cores)" in en and "3.2 s" in en


def test_provenance_in_chinese(chinese):
    zh = provenance.provenance_paragraph(INFO, 3.25).astext()
    assert zh.startswith("本页构建时的运行环境：Python 3.12.1，jax 0.12.0.1，flax 0.12.12；")
    assert "CPU ×8（模拟设备；Linux x86_64，2 核）" in zh and "所有单元格共耗时 3.2 秒" in zh
