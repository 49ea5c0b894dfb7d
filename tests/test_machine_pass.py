"""tools/machine/report.py: the accelerator machine's run of every snippet, with only python3 and jax."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tools.machine.report import ReportRow
from tools.site import ROOT

from kb.run.plan import site_plan, snippet_digest  # noqa: E402 (tools.site: docs/_ext importable)


def test_it_needs_no_sphinx_nor_nox():
    code = ("import sys; sys.path.insert(0, 'tools/machine'); import report; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sphinx', 'myst_nb', 'nox', 'conf', 'docutils')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out


def test_it_writes_a_dated_report_of_each_snippet(tmp_path):
    result = subprocess.run([sys.executable, "tools/machine/report.py", "--only", "core/cf_switch.py", "--out", str(tmp_path),
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
    run = subprocess.run([sys.executable, "tools/machine/report.py", "--reclassify", str(report), "--control", str(good)],
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
    refused = subprocess.run([sys.executable, "tools/machine/report.py", "--reclassify", str(report), "--control", str(other)],
                             cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert refused.returncode != 0 and "same Python and versions" in refused.stderr


def test_cpu_control_installs_again_when_the_report_tracks_other_versions(tmp_path, monkeypatch):
    """A site installed for an earlier report (fewer packages) is not reused: its marker lists what it holds."""
    import platform

    from tools.machine import control as cpu_control

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
    assert "pip" not in calls[-1] and str(cpu_control.ROOT / "tools" / "machine" / "report.py") in calls[-1]


def test_expected_seconds_come_from_an_earlier_report_with_a_margin(tmp_path):
    from tools.machine.report import expected_seconds

    report = tmp_path / "r.json"
    report.write_text(json.dumps({"snippets": [{"snippet": "snippets/a/x.py", "seconds": 10.0},
                                               {"snippet": "snippets/a/y.py", "seconds": None}]}))
    assert expected_seconds([report]) == {"snippets/a/x.py": 17.0}
    assert expected_seconds([]) == {}


def test_a_call_cut_off_before_its_report_still_counts_in_the_sittings_clock(tmp_path):
    """pass.json is written when a call starts and after each kept program, not only at its end."""
    import datetime

    from tools.machine.report import SittingClock

    start = datetime.datetime(2026, 12, 6, 16, 41, tzinfo=datetime.timezone.utc)
    first = SittingClock(tmp_path / "pass.json", start)
    time.sleep(0.2)
    first.tick()  # a program kept; then the call is killed: no report, no final tick
    cut = json.loads((tmp_path / "pass.json").read_text())
    assert cut["calls"] == 1 and cut["wall_seconds"] >= 0.2 and cut["started"] == "2026-12-06T16:41:00+00:00"
    later = datetime.datetime(2026, 12, 6, 16, 52, tzinfo=datetime.timezone.utc)
    meta = SittingClock(tmp_path / "pass.json", later).tick()  # the next call of the same sitting
    assert meta["calls"] == 2 and meta["started"] == cut["started"] and meta["wall_seconds"] >= cut["wall_seconds"]


def test_a_call_killed_mid_pass_leaves_the_report_of_what_it_ran(tmp_path):
    """The device's time limit kills a call with its running program: what ran before must be in a
    report already (written as the pass goes, --report-every), not only in the machine's state."""
    import os
    import signal

    fast, slow = "snippets/start/pt_forward_loss_torch.py", "snippets/gpt/gstep_train.py"  # 2-3 s beside; ~50 s on the CPU
    process = subprocess.Popen([sys.executable, str(ROOT / "tools" / "machine" / "report.py"), "--policy", "tpu",
                                "--only", ",".join(n.removeprefix("snippets/") for n in (fast, slow)), "--report-every", "0",
                                "--state", str(tmp_path / "state"), "--out", str(tmp_path / "out")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.time() + 120
        report = None
        while time.time() < deadline and report is None:
            time.sleep(0.5)
            for path in (tmp_path / "out").glob("*.json"):
                try:
                    report = json.loads(path.read_text())
                except ValueError:
                    pass  # being written
        assert process.poll() is None, "the pass ended before it could be cut off"
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    assert report is not None, "no report while the pass ran"
    assert [r["snippet"] for r in report["snippets"]] == [fast] and report["snippets"][0]["outcome"] == "ok"
    assert slow in report["pass"]["pending"] and report["pass"]["calls"] == 1


def test_the_pass_runs_the_notebooks_of_the_pages_that_held_the_chip_longest(site, tmp_path):
    """--notebooks 1 picks the page whose programs held the accelerator longest in the --expect
    report and runs its notebook in one kernel with the runner of nox -s notebooks (here on the
    CPU, through the pass's own code path); each program is compared with what it printed alone in
    the pass (a merged row that printed something else makes the notebook "differs", naming that
    program), and the page's row and the .md table say so. With no time left it is not started."""
    from tools.machine.report import NotebookRow

    first, second = "snippets/reference/mig_removed.py", "snippets/reference/mig_flax_nnx.py"  # reference/migration
    digest = {name: snippet_digest(ROOT / name) for name in (first, second)}
    expect = tmp_path / "tpu.json"
    expect.write_text(json.dumps({"snippets": [
        {"snippet": first, "pages": ["reference/migration"], "backend": "tpu", "seconds": 40.0},
        {"snippet": second, "pages": ["reference/migration"], "backend": "tpu", "seconds": 30.0},
        {"snippet": "snippets/core/vmap_first.py", "pages": ["core/vmap"], "backend": "tpu", "seconds": 60.0},
        {"snippet": "snippets/core/jit_first_call.py", "pages": ["core/jit"], "backend": "cpu", "seconds": 500.0}]}))
    merged = tmp_path / "merged.json"
    merged.write_text(json.dumps(_report("3.12.1", "0.12.0.1", ["tpu"], [
        {**_row(second, digest[second], "ok", None), "stdout": "not what it prints\n"}])))

    def run(out, *extra: str) -> dict:
        result = subprocess.run([sys.executable, "tools/machine/report.py", "--policy", "tpu", "--only", first.removeprefix("snippets/"),
                                 "--notebooks", "1", "--notebook-site", str(site), "--expect", str(expect), "--workers", "1",
                                 "--out", str(out), "--state", str(out / "state"), *extra], cwd=ROOT, capture_output=True,
                                text=True, timeout=600)
        assert result.returncode == 0, result.stderr
        [report_file] = out.glob("*.json")
        return json.loads(report_file.read_text(encoding="utf-8"))

    report = run(tmp_path / "out", "--merge", str(merged))
    [row] = report["notebooks"]
    assert list(row) == list(NotebookRow.__annotations__)
    assert row["page"] == "reference/migration" and row["programs"] == digest and report["pass"]["pending_notebooks"] == []
    assert row["outcome"] == "differs" and row["differs"] == [second] and row["error"] is None, row["problems"]
    assert row["cells"] == 3 and row["seconds"] > 0 and "the program alone printed 'not what it prints'" in row["problems"][0]
    table = next((tmp_path / "out").glob("*.md")).read_text(encoding="utf-8")
    assert f"| reference/migration | differs | {row['seconds']:.1f} | 3 | 0 | `{second}` |" in table

    late = run(tmp_path / "late", "--budget", "1")
    assert "notebooks" not in late and late["pass"]["pending_notebooks"] == ["reference/migration"]


def test_the_machine_report_names_each_snippets_pages(tmp_path):
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "machine" / "report.py"), "--policy", "tpu",
                          "--only", "start/pf_key_types.py", "--state", str(tmp_path / "state"), "--out", str(tmp_path)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    report = json.loads(next(tmp_path.glob("*.json")).read_text())
    (row,) = report["snippets"]
    assert row["pages"] == ["start/pure-functions"] and row["outcome"] == "ok" and row["how"] == "batch"
    # The report covers the whole plan: every other program is pending until a call runs it.
    plan = sorted(site_plan(ROOT / "docs").jobs)
    assert report["pass"]["pending"] == [n for n in plan if n != row["snippet"]] and report["pass"]["calls"] == 1
    # As tools/machine/tpu_pass.sh calls it: a state folder inside the repository, named relative to its root.
    (ROOT / "_build").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir=ROOT / "_build", prefix="test-pass-") as state:
        run = subprocess.run([sys.executable, "tools/machine/report.py", "--policy", "tpu",
                              "--only", "start/pf_key_types.py", "--state", str(Path(state).relative_to(ROOT)),
                              "--out", str(tmp_path / "again")], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    (row,) = json.loads(next((tmp_path / "again").glob("*.json")).read_text())["snippets"]
    assert row["outcome"] == "ok" and row["how"] == "batch" and "first_try" not in row, row


def test_a_call_with_only_keeps_the_merged_rows_of_every_unchanged_program(tmp_path):
    """A sitting's call runs what --only selects; the merged report's rows of all other programs
    stay when their bytes are unchanged (a changed one is pending), and a second call of the same
    sitting that merges the first call's report leaves one entry for the sitting."""
    from tools.machine.report import snippet_digest

    first = tmp_path / "first"
    args = [sys.executable, str(ROOT / "tools" / "machine" / "report.py"), "--policy", "tpu",
            "--state", str(tmp_path / "state")]
    run = subprocess.run(args + ["--only", "start/pf_key_types.py", "--out", str(first)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    report_path = next(first.glob("*.json"))
    report = json.loads(report_path.read_text())
    (row,) = report["snippets"]
    kept, changed = "snippets/start/pf_fold_in.py", "snippets/start/pf_jax_same_key.py"
    missing = "snippets/start/pf_key_reuse_check.py"  # unchanged, but a package was missing there
    caveat = "snippets/start/pf_split_reuse.py"  # unchanged, but its output is known to be off
    report["snippets"] += [dict(row, snippet=kept, sha256=snippet_digest(ROOT / kept)),
                           dict(row, snippet=changed, sha256="0" * 64),  # as if run before an edit
                           dict(row, snippet=missing, sha256=snippet_digest(ROOT / missing), outcome="not installed here"),
                           dict(row, snippet=caveat, sha256=snippet_digest(ROOT / caveat), caveat="ran beside leftovers")]
    report_path.write_text(json.dumps(report))
    run = subprocess.run(args + ["--only", "start/pf_global_baked_in.py", "--merge", str(report_path),
                                 "--out", str(tmp_path / "second")], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    second = json.loads(next((tmp_path / "second").glob("*.json")).read_text())
    names = [r["snippet"] for r in second["snippets"]]
    assert names == ["snippets/start/pf_fold_in.py", "snippets/start/pf_global_baked_in.py", "snippets/start/pf_key_types.py"]
    assert changed in second["pass"]["pending"] and kept not in second["pass"]["pending"]
    assert missing in second["pass"]["pending"] and caveat in second["pass"]["pending"]  # both run again later
    assert len(second["pass"]["sittings"]) == 1 and second["pass"]["sittings"][0]["calls"] == 2
    assert second["pass"]["sittings"][0]["programs"] == 2  # both calls' programs, from the sitting's state


def test_the_pinned_wheels_travel_in_pieces_and_every_byte_is_checked_at_the_far_end(tmp_path):
    """tools/machine/wheels.py: packed here into pieces under a call's size limit, joined and checked
    there; a piece cut short or a wheel that is not the packed one stops the install, naming why."""
    import pytest

    from tools.machine.wheels import pack, unpack

    wheels = tmp_path / "wheels"
    wheels.mkdir()
    for name, size in (("a-1.0-py3-none-any.whl", 3000), ("b-2.0-py3-none-any.whl", 5000)):
        (wheels / name).write_bytes(bytes(range(256)) * (size // 256))
    out = tmp_path / "out"
    out.mkdir()
    manifest = pack(sorted(wheels.glob("*.whl")), out, {"python": "3.12"}, piece=4096)
    assert len(manifest["pieces"]) >= 2 and all((out / p).stat().st_size <= 4096 for p in manifest["pieces"])
    work = tmp_path / "work"
    work.mkdir()
    got = unpack(out, work)
    assert [w.name for w in got] == sorted(manifest["wheels"]) and got[0].read_bytes() == (wheels / got[0].name).read_bytes()
    last = out / manifest["pieces"][-1]
    last.write_bytes(last.read_bytes()[:-10])  # a piece cut short on the way
    (tmp_path / "work2").mkdir()
    with pytest.raises(SystemExit, match="joined pieces are not the tar"):
        unpack(out, tmp_path / "work2")
    last.unlink()
    with pytest.raises(SystemExit, match="pieces not received yet: out.tar"):
        unpack(out, work)


def test_a_program_whose_package_the_machine_lacks_is_named_and_not_run(tmp_path, monkeypatch):
    """On a TPU VM's Python 3.12 there is no torch (wheels.py says why): its programs are rows of
    their own, 'not installed here' with the package named, and cost the pass nothing."""
    import importlib.util

    from tools.machine import report

    real = importlib.util.find_spec
    monkeypatch.setattr(report.importlib.util, "find_spec", lambda name, *a: None if name == "torch" else real(name, *a))
    assert report.main(["--only", "start/pt_forward_loss_torch.py", "--state", str(tmp_path / "state"),
                        "--out", str(tmp_path / "out")]) == 0
    (row,) = json.loads(next((tmp_path / "out").glob("*.json")).read_text())["snippets"]
    assert row["outcome"] == "not installed here" and row["how"] == "not run" and row["seconds"] == 0
    assert "No module named 'torch'" in row["error"]


def test_the_stand_in_nvidia_libraries_answer_as_the_real_ones_do_without_a_driver(tmp_path):
    """tools/machine/wheels.py cuda_stubs: the libraries that let the registry's CUDA torch import on
    the TPU VM answer what torch asks on a CPU machine as the real libraries do there: no device, the
    driver's error and its message, the real versions; and they define every symbol torch links."""
    import ctypes
    import importlib.util
    import shutil

    import pytest

    from tools.machine.wheels import cuda_stubs

    if not (shutil.which("gcc") and shutil.which("readelf")):
        pytest.skip("the stand-ins are built with gcc and read with readelf (binutils), which this machine lacks")

    made = {p.name: p for p in cuda_stubs(tmp_path)}
    assert {"libcudart.so.13", "libcudnn.so.9", "libcublas.so.13"} <= set(made)
    torch_dir = Path(importlib.util.find_spec("torch").origin).parent  # not imported: its own libraries stay out
    real = {p.name: p for p in (torch_dir.parent / "nvidia").rglob("*.so*")}
    stub, true = ctypes.CDLL(str(made["libcudart.so.13"])), ctypes.CDLL(str(real["libcudart.so.13"]))
    for lib in (stub, true):
        lib.cudaGetErrorString.restype = ctypes.c_char_p
    count = ctypes.c_int(7)
    assert stub.cudaGetDeviceCount(ctypes.byref(count)) == 35 and count.value == 0  # no device, the driver's error
    assert true.cudaGetDeviceCount(ctypes.byref(ctypes.c_int())) == 35  # as the real one says on this machine
    assert stub.cudaGetErrorString(35) == true.cudaGetErrorString(35)
    assert stub.cudaMalloc() == 35  # any other call: the driver's error, nothing done
    cudnn = [ctypes.CDLL(str(d[n])) for d, n in ((made, "libcudnn.so.9"), (real, "libcudnn.so.9"))]
    for lib in cudnn:
        lib.cudnnGetVersion.restype = ctypes.c_size_t
    assert cudnn[0].cudnnGetVersion() == cudnn[1].cudnnGetVersion() > 90000
    # Every symbol torch's libraries take from these libraries is defined, with the real symbol version.
    torch_lib = torch_dir / "lib" / "libtorch_cuda.so"
    wanted = {line.split()[7] for line in subprocess.run(["readelf", "--dyn-syms", "-W", str(torch_lib)],
              capture_output=True, text=True, check=True).stdout.splitlines()
              if len(line.split()) >= 8 and line.split()[6] == "UND" and "@libcudart.so.13" in line}
    given = {line.split()[7].replace("@@", "@") for line in subprocess.run(
        ["readelf", "--dyn-syms", "-W", str(made["libcudart.so.13"])], capture_output=True, text=True,
        check=True).stdout.splitlines() if len(line.split()) >= 8 and line.split()[6] not in ("UND", "ABS")}
    assert wanted and {w.split(" ")[0] for w in wanted} <= given
