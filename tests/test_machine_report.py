"""tools/machine_report.py: the accelerator machine's run of every snippet, with only python3 and jax."""

from __future__ import annotations

import json
import subprocess
import sys

from tools.machine_report import ReportRow
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
    keys = list(ReportRow.__annotations__)  # the row's type: its keys, in their order
    assert list(row) == [key for key in keys if key in row] and set(keys) - set(row) <= {"first_try", "figures", "cpu_evidence", "caveat"}


def _report(python: str, jax: str, backends: list[str], rows: list[dict]) -> dict:
    return {"date": "2026-12-06T00:00:00+00:00", "machine": "test", "backends": backends, "python": python,
            "installed": {"jax": jax}, "pinned": {"jax": "0.12.0.1"}, "differs_from_pins": {}, "workers": 1,
            "counts": {}, "noise": {}, "snippets": rows}


def _row(name: str, sha: str, outcome: str, error: str | None) -> dict:
    return {"snippet": name, "sha256": sha, "pages": [], "outcome": outcome, "error": error, "error_line": None,
            "backend": "tpu", "device": "TPU v5 lite", "cpu_by_design": False, "packages": {}, "seconds": 1.0,
            "alone": False, "how": "batch", "noise": [], "stdout": ""}


def test_reclassify_counts_only_a_control_with_the_same_versions_bytes_and_error(tmp_path):
    """A TPU failure becomes "versions differ" only where a CPU run with the same Python and versions
    failed the same program the same way; the rest stay "failed", and a mismatched control is refused."""
    tpu = _report("3.11.7", "0.10.2", ["cpu", "tpu"], [
        _row("snippets/a.py", "1", "failed", "TypeError: unhashable type: 'slice' (exit status 1)"),
        _row("snippets/b.py", "2", "failed", "AssertionError (exit status 1)"),    # passes on the CPU: the TPU's
        _row("snippets/c.py", "3", "failed", "AssertionError (exit status 1)"),    # the control ran other bytes
        _row("snippets/d.py", "4", "failed", "OSError: no socket (exit status 1)")])  # fails there another way
    control = _report("3.11.7", "0.10.2", ["cpu"], [
        _row("snippets/a.py", "1", "failed", "TypeError: unhashable type: 'slice' (exit status 1)"),
        _row("snippets/b.py", "2", "ok", None),
        _row("snippets/c.py", "old", "failed", "AssertionError (exit status 1)"),
        _row("snippets/d.py", "4", "failed", "AssertionError (exit status 1)")])
    report, good = tmp_path / "tpu.json", tmp_path / "control.json"
    report.write_text(json.dumps(tpu)), good.write_text(json.dumps(control))
    run = subprocess.run([sys.executable, "tools/machine_report.py", "--reclassify", str(report), "--control", str(good)],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    after = json.loads(report.read_text())
    assert [r["outcome"] for r in after["snippets"]] == ["versions differ", "failed", "failed", "failed"]
    assert "Python 3.11.7 and jax 0.10.2" in after["snippets"][0]["cpu_evidence"]
    assert after["counts"] == {"versions differ": 1, "failed": 3}
    md = report.with_suffix(".md").read_text()
    assert "## What failed, and the CPU evidence" in md and "`snippets/b.py` (failed)" in md

    other = tmp_path / "other.json"
    other.write_text(json.dumps(_report("3.12.1", "0.10.2", ["cpu"], control["snippets"])))
    refused = subprocess.run([sys.executable, "tools/machine_report.py", "--reclassify", str(report), "--control", str(other)],
                             cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert refused.returncode != 0 and "same Python and versions" in refused.stderr


def test_cpu_control_installs_again_when_the_report_tracks_other_versions(tmp_path, monkeypatch):
    """A site installed for an earlier report (fewer packages) is not reused: its marker lists what it holds."""
    import platform

    from tools import cpu_control

    report = _report(platform.python_version(), "0.10.2", ["tpu"], [{"snippet": "snippets/core/x.py", "outcome": "failed"}])
    report["installed"]["transformers"] = "5.17.0"
    path = tmp_path / "r.json"
    path.write_text(json.dumps(report), encoding="utf-8")
    site = tmp_path / "site"
    site.mkdir()
    calls = []

    class Stop(Exception):
        pass

    def run(cmd, **kwargs):
        calls.append(cmd)
        raise Stop

    monkeypatch.setattr(cpu_control.subprocess, "run", run)
    (site / ".installed").write_text("jax==0.10.2\nscikit-learn\nmatplotlib\n", encoding="utf-8")  # an older report's
    try:
        cpu_control.main([str(path), "--site", str(site)])
    except Stop:
        pass
    assert "pip" in calls[-1] and "transformers==5.17.0" in calls[-1]
    site.mkdir(exist_ok=True)
    (site / ".installed").write_text("\n".join(cpu_control.requirements(report)) + "\n", encoding="utf-8")
    try:
        cpu_control.main([str(path), "--site", str(site)])
    except Stop:
        pass
    assert "pip" not in calls[-1] and str(cpu_control.ROOT / "tools" / "machine_report.py") in calls[-1]
