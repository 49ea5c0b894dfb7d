"""tools/machine_report.py: the accelerator machine's run of every snippet, with only python3 and jax."""

from __future__ import annotations

import json
import subprocess
import sys

from tools.site import ROOT


def test_it_needs_no_sphinx_nor_nox():
    code = ("import sys; sys.path.insert(0, 'tools'); import machine_report; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sphinx', 'myst_nb', 'nox', 'conf', 'docutils')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out


def test_it_writes_a_dated_report_of_each_snippet(tmp_path):
    result = subprocess.run([sys.executable, "tools/machine_report.py", "--only", "core/cf_switch.py", "--out", str(tmp_path),
                             "--workers", "1"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    [report_file] = tmp_path.glob("*.json")
    report = json.loads(report_file.read_text(encoding="utf-8"))
    assert report_file.name.startswith(report["date"][:10]) and (tmp_path / report_file.name.replace(".json", ".md")).exists()
    [row] = report["snippets"]
    assert row["snippet"] == "snippets/core/cf_switch.py" and row["outcome"] == "ok" and row["backend"] == "cpu"
    assert row["packages"]["jax"] == report["installed"]["jax"] and row["seconds"] > 0
    assert report["counts"] == {"ok": 1} and report["differs_from_pins"] == {}  # this is the pinned environment
    assert "| `snippets/core/cf_switch.py` | ok | cpu |" in (tmp_path / report_file.name.replace(".json", ".md")).read_text()
