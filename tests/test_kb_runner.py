"""Unit tests of kb.runner and kb.records: a snippet runs as a reader runs it, records are whole
or absent, shards split the work, and records made differently are refused."""

from __future__ import annotations

import json
import os

import pytest

from kb import records, runner


def _run(tmp_path, code, name="snippets/sec/a.py", timeout=60, env=None):
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(code, encoding="utf-8")
    old = dict(os.environ)
    os.environ.update(env or {})
    try:
        return runner.run_snippet(runner.job(path, tmp_path), timeout)
    finally:
        os.environ.clear()
        os.environ.update(old)


def test_a_snippet_runs_under_a_readers_conditions(tmp_path):
    """No build variable reaches it, its working directory is empty, it has no standard input; the
    one setting it gets is the one that lets programs share a GPU (no memory preallocation)."""
    code = ('"""Looks around."""\nimport os, sys\n'
            'print(sorted(k for k in os.environ if k.startswith(("JAX_", "XLA_", "KB_"))))\n'
            'print(os.listdir("."))\nprint(sys.stdin.read() == "")\n')
    record = _run(tmp_path, code, env={"JAX_NUM_CPU_DEVICES": "8", "XLA_FLAGS": "--x", "KB_SECRET": "1"})
    assert record["returncode"] == 0, record["stderr"]
    assert record["stdout"] == "['XLA_PYTHON_CLIENT_PREALLOCATE']\n[]\nTrue\n"


def test_a_deprecation_is_an_error_and_the_traceback_names_the_snippet_line(tmp_path):
    code = '"""Old API."""\nimport warnings\n\nwarnings.warn("gone soon", DeprecationWarning)\n'
    record = _run(tmp_path, code)
    assert record["returncode"] == 1 and record["error_line"] == 4
    assert 'File "snippets/sec/a.py", line 4' in record["stderr"], record["stderr"]
    assert "DeprecationWarning: gone soon" in records.problem(record)


def test_a_hanging_snippet_is_stopped_at_the_timeout(tmp_path):
    record = _run(tmp_path, '"""Hangs."""\nimport time\nwhile True:\n    time.sleep(0.1)\n', timeout=2)
    assert record["timed_out"] and "still running after the 2 s timeout" in records.problem(record)


def test_a_figure_is_svg_with_its_place_in_stdout(tmp_path):
    code = ('"""Draws."""\nimport matplotlib.pyplot as plt\nprint("before")\n'
            'plt.plot([0, 1]); plt.title("A line")\nplt.show()\nprint("after")\nassert True is not False\n')
    record = _run(tmp_path, code)
    assert record["returncode"] == 0, record["stderr"]
    [figure] = record["figures"]
    assert figure["offset"] == len("before\n") and ">A line</text>" in figure["svg"]
    kinds = [o["output_type"] for o in records.notebook_outputs(record)]
    assert kinds == ["stream", "display_data", "stream"]


def test_records_are_written_whole_and_a_partial_one_is_not_trusted(tmp_path):
    record = _run(tmp_path, '"""Prints."""\nprint(1)\n')
    path = records.write_record(tmp_path / "store", record)
    assert records.good_record(tmp_path / "store", record["snippet"], record["key"]) == record
    assert not list(path.parent.glob("*.part"))  # written to a temporary file, then renamed
    path.write_text(path.read_text(encoding="utf-8")[: len(path.read_text(encoding="utf-8")) // 2], encoding="utf-8")
    assert records.good_record(tmp_path / "store", record["snippet"], record["key"]) is None  # so it runs again


def test_a_failed_run_is_not_reused(tmp_path):
    record = _run(tmp_path, '"""Fails."""\nassert 1 == 2, "no"\n')
    records.write_record(tmp_path / "store", record)
    assert records.read_record(records.record_path(tmp_path / "store", record["snippet"], record["key"]))
    assert records.good_record(tmp_path / "store", record["snippet"], record["key"]) is None


def test_timing_snippets_run_after_the_others_one_at_a_time(tmp_path):
    for name, code in [("a", "print(1)\n"), ("t", f"{runner.TIMINGS}\nprint(2)\n"), ("b", "print(3)\n")]:
        (tmp_path / "snippets" / "sec").mkdir(parents=True, exist_ok=True)
        (tmp_path / "snippets" / "sec" / f"{name}.py").write_text(f'"""{name}."""\n{code}', encoding="utf-8")
    jobs = [runner.job(p, tmp_path) for p in sorted((tmp_path / "snippets" / "sec").glob("*.py"))]
    order = []
    runner.run_all(jobs, tmp_path / "store", timeout=60, workers=2, done=lambda r: order.append(r["snippet"]))
    assert order[-1] == "snippets/sec/t.py" and sorted(order[:2]) == ["snippets/sec/a.py", "snippets/sec/b.py"]
    alone = {r["snippet"]: r["alone"] for r in map(records.read_record, (tmp_path / "store").rglob("*.json"))}
    assert alone == {"snippets/sec/a.py": False, "snippets/sec/b.py": False, "snippets/sec/t.py": True}


def test_shards_cover_every_snippet_once_and_balance_by_earlier_seconds():
    jobs = [runner.Job(None, f"snippets/s/{i:02}.py", str(i)) for i in range(20)]
    seconds = {job.name: float(i % 7) for i, job in enumerate(jobs)}
    parts = [runner.shard(jobs, k, 3, lambda j: seconds[j.name]) for k in (1, 2, 3)]
    names = [j.name for part in parts for j in part]
    assert sorted(names) == sorted(j.name for j in jobs)
    loads = [sum(seconds[j.name] for j in part) for part in parts]
    assert max(loads) - min(loads) <= max(seconds.values())
    assert parts == [runner.shard(jobs, k, 3, lambda j: seconds[j.name]) for k in (1, 2, 3)]  # stable
    with pytest.raises(ValueError, match="between 1 and N"):
        runner.shard(jobs, 4, 3, lambda j: None)


def test_records_from_another_lock_or_runner_are_refused(tmp_path):
    record = _run(tmp_path, '"""Prints."""\nprint(1)\n')
    records.write_record(tmp_path / "shard", record)
    env = records.environment()
    assert records.import_records([tmp_path / "shard"], tmp_path / "store", env, runner.RUNNER) == 1
    with pytest.raises(ValueError, match="made with lock .* but this build has 'other'"):
        records.import_records([tmp_path / "shard"], tmp_path / "store2", env | {"lock": "other"}, runner.RUNNER)
    with pytest.raises(ValueError, match="made with runner"):
        records.import_records([tmp_path / "shard"], tmp_path / "store2", env, "runner-9")
    broken = next((tmp_path / "shard").rglob("*.json"))
    broken.write_text(json.dumps({"format": 1}), encoding="utf-8")
    with pytest.raises(ValueError, match="not a whole record"):
        records.import_records([tmp_path / "shard"], tmp_path / "store3", env, runner.RUNNER)


def test_the_key_changes_with_the_snippet_and_the_environment():
    env = records.environment()
    key = records.record_key(b"print(1)", env, runner.RUNNER)
    assert key == records.record_key(b"print(1)", dict(env), runner.RUNNER)
    for other in (records.record_key(b"print(2)", env, runner.RUNNER),
                  records.record_key(b"print(1)", env | {"lock": "x"}, runner.RUNNER),
                  records.record_key(b"print(1)", env | {"backend": "jax-cuda13-plugin==0.12.0"}, runner.RUNNER),
                  records.record_key(b"print(1)", env, "other-runner")):
        assert other != key
