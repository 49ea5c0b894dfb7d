"""Unit tests of docs/_ext/kb_pipeline.py (the fixture builds test it end to end)."""

from __future__ import annotations

import json

import nbformat
from docutils import nodes

import kb_pipeline as kb


def test_execution_hook_wraps_myst_nb():
    """kb_pipeline replaces the function MyST-NB 1.4 calls to execute a notebook; if an upgrade
    renames it, timing and the no-execution rule of the Chinese build would silently stop."""
    from myst_nb.core.execute import cache as nb_cache

    kb._install_execution_hook()
    assert getattr(nb_cache.single_nb_execution, "_kb_wrapped", False)


def test_scan_code_cells_reads_yaml_options_and_longer_fences():
    text = (
        "---\nfile_format: mystnb\n---\n\n"
        "````{code-cell} python\n---\nload: ../../snippets/a.py\ntab: PyTorch\n---\n````\n\n"
        "```{code-cell} ipython3\n:load: ../../snippets/b.py\n\n```\n"
        "```python\nnot a cell\n```\n"
    )
    cells = kb.scan_code_cells(text)
    assert [c["options"].get("load") for c in cells] == ["../../snippets/a.py", "../../snippets/b.py"]
    assert cells[0]["options"]["tab"] == "PyTorch"
    assert not any(c["inline"] for c in cells)


def test_move_timing_to_probe_keeps_the_cache_hash_stable():
    probe_output = nbformat.v4.new_output("stream", name="stdout", text=kb.PROBE_MARKER + json.dumps({"python": "3"}) + "\n")
    cells = [nbformat.v4.new_code_cell("print(1)"), nbformat.v4.new_code_cell("probe", outputs=[probe_output])]
    cells[1].metadata["tags"] = ["remove-input", kb.PROBE_TAG]
    for cell, (start, end) in zip(cells, [("00.000", "01.500"), ("01.600", "01.700")]):
        cell.metadata["execution"] = {"iopub.execute_input": f"2026-01-01T00:00:{start}Z",
                                      "shell.execute_reply": f"2026-01-01T00:00:{end}Z"}
    nb = nbformat.v4.new_notebook(cells=cells)
    kb.move_timing_to_probe(nb)
    assert all("execution" not in c.metadata for c in nb.cells)  # hashed metadata unchanged
    info = kb.parse_probe(nb.cells[1].outputs[0]["text"])
    assert info == {"python": "3", "cell_seconds": [1.5]}


def _cell(tab=None):
    meta = {"tab": tab} if tab else {}
    return nodes.container(nb_element="cell_code", cell_metadata=meta)


def test_tab_groups_are_runs_of_adjacent_tabbed_cells():
    a, b, plain, c, d = _cell("PyTorch"), _cell("JAX"), _cell(), _cell("PyTorch"), _cell("JAX")
    groups = kb.tab_groups([a, b, nodes.paragraph(), plain, c, nodes.target(), d])
    assert groups == [[a, b], [c, d]]


def test_provenance_text_in_both_languages():
    info = {"python": "3.12.1", "packages": {"jax": "0.12.0.1"}, "backend": "cpu", "device_count": 8,
            "device_kind": "cpu", "machine": "Linux x86_64", "cpu_count": 2, "date": "2026-11-29"}
    en = kb.provenance_node(info, 3.25, "en").astext()
    zh = kb.provenance_node(info, 3.25, "zh_CN").astext()
    assert "jax 0.12.0.1" in en and "CPU ×8 (emulated; Linux x86_64, 2 cores)" in en and "3.2 s" in en
    assert "CPU ×8（模拟设备；Linux x86_64，2 核）" in zh and "3.2 秒" in zh
    assert zh.startswith("本页在构建时执行：") and "jax 0.12.0.1" in zh
    assert set(kb.PROVENANCE_TEXT["en"]) == set(kb.PROVENANCE_TEXT["zh_CN"])


def test_chinese_build_requires_jieba(monkeypatch):
    """Without jieba Sphinx silently indexes no Chinese words; our build refuses instead."""
    import sys
    from types import SimpleNamespace

    import pytest
    from sphinx.errors import ExtensionError

    import kb_reader

    monkeypatch.setitem(sys.modules, "jieba", None)  # import jieba -> ImportError
    app = SimpleNamespace(config=SimpleNamespace(language="zh_CN"), builder=SimpleNamespace(format="html"))
    with pytest.raises(ExtensionError, match="needs jieba"):
        kb_reader.on_builder_inited(app)
    app.config.language = "en"
    kb_reader.on_builder_inited(app)  # the English build does not need it
