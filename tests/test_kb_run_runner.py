"""Unit tests of kb.run.runner and kb.run.store: a snippet runs as a reader runs it, records are
whole or absent, shards split the work, and records made differently are refused."""

from __future__ import annotations

import json
import os

import pytest

from kb import reader
from kb.run import process, runner, store


def _run(tmp_path, code, name="snippets/sec/a.py", timeout=60, env=None):
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(code, encoding="utf-8")
    old = dict(os.environ)
    os.environ.update(env or {})
    try:
        return runner.run_one(runner.job(path, tmp_path), timeout)
    finally:
        os.environ.clear()
        os.environ.update(old)


def test_a_snippet_runs_under_a_readers_conditions(tmp_path):
    """No build variable reaches it, its working directory is empty, it has no standard input; on
    a CPU it gets no setting of the build's (on a GPU, the one that lets programs share it)."""
    code = ('"""Looks around."""\nimport os, sys\n'
            'print(sorted(k for k in os.environ if k.startswith(("JAX_", "XLA_", "KB_"))))\n'
            'print(os.listdir("."))\nprint(sys.stdin.read() == "")\n')
    record = _run(tmp_path, code, env={"JAX_NUM_CPU_DEVICES": "8", "XLA_FLAGS": "--x", "KB_SECRET": "1"})
    assert record["returncode"] == 0, record["stderr"]
    assert record["stdout"] == "[]\n[]\nTrue\n" and record["how"] == "process"


def test_a_deprecation_is_an_error_and_the_traceback_names_the_snippet_line(tmp_path):
    code = '"""Old API."""\nimport warnings\n\nwarnings.warn("gone soon", DeprecationWarning)\n'
    record = _run(tmp_path, code)
    assert record["returncode"] == 1 and record["error_line"] == 4
    assert 'File "snippets/sec/a.py", line 4' in record["stderr"], record["stderr"]
    assert "DeprecationWarning: gone soon" in store.problem(record)


def test_a_hanging_snippet_is_stopped_at_the_timeout(tmp_path):
    record = _run(tmp_path, '"""Hangs."""\nimport time\nwhile True:\n    time.sleep(0.1)\n', timeout=2)
    assert record["timed_out"] and "still running after the 2 s timeout" in store.problem(record)


def test_a_figure_is_svg_with_its_place_in_stdout(tmp_path):
    code = ('"""Draws."""\nimport matplotlib.pyplot as plt\nprint("before")\n'
            'plt.plot([0, 1]); plt.title("A line")\nplt.show()\nprint("after")\nassert True is not False\n')
    record = _run(tmp_path, code)
    assert record["returncode"] == 0, record["stderr"]
    [figure] = record["figures"]
    assert figure["offset"] == len("before\n") and ">A line</text>" in figure["svg"]
    kinds = [o["output_type"] for o in reader.notebook_outputs(record)]
    assert kinds == ["stream", "display_data", "stream"]


def test_a_record_has_the_fields_of_its_type_in_their_order(tmp_path):
    """``store.Record`` spells a record's shape once: the runner's record and its JSON file follow it."""
    record = _run(tmp_path, '"""Prints."""\nprint(1)\n')
    assert tuple(record) == store.FIELDS == tuple(store.Record.__annotations__)
    path = store.write_record(tmp_path / "store", record)
    assert tuple(json.loads(path.read_text(encoding="utf-8"))) == store.FIELDS


def test_records_are_written_whole_and_a_partial_one_is_not_trusted(tmp_path):
    record = _run(tmp_path, '"""Prints."""\nprint(1)\n')
    path = store.write_record(tmp_path / "store", record)
    assert store.good_record(tmp_path / "store", record["snippet"], record["key"]) == record
    assert not list(path.parent.glob("*.part"))  # written to a temporary file, then renamed
    path.write_text(path.read_text(encoding="utf-8")[: len(path.read_text(encoding="utf-8")) // 2], encoding="utf-8")
    assert store.good_record(tmp_path / "store", record["snippet"], record["key"]) is None  # so it runs again


def test_a_failed_run_is_not_reused(tmp_path):
    record = _run(tmp_path, '"""Fails."""\nassert 1 == 2, "no"\n')
    store.write_record(tmp_path / "store", record)
    assert store.read_record(store.record_path(tmp_path / "store", record["snippet"], record["key"]))
    assert store.good_record(tmp_path / "store", record["snippet"], record["key"]) is None


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
    store.write_record(tmp_path / "shard", record)
    env = store.environment()
    assert store.import_records([tmp_path / "shard"], tmp_path / "store", env, process.RUNNER) == 1
    with pytest.raises(ValueError, match="made with lock .* but this build has 'other'"):
        store.import_records([tmp_path / "shard"], tmp_path / "store2", env | {"lock": "other"}, process.RUNNER)
    with pytest.raises(ValueError, match="made with runner"):
        store.import_records([tmp_path / "shard"], tmp_path / "store2", env, "runner-9")
    broken = next((tmp_path / "shard").rglob("*.json"))
    broken.write_text(json.dumps({"format": 1}), encoding="utf-8")
    with pytest.raises(ValueError, match="not a whole record"):
        store.import_records([tmp_path / "shard"], tmp_path / "store3", env, process.RUNNER)


def test_the_environment_is_read_once_per_process():
    """Every snippet's key needs it (1551 times in one gettext build); parsing every package's
    metadata each time made a build of the site spend most of its time there."""
    first = store.environment()
    misses = store._installed.cache_info().misses
    assert [store.environment() for _ in range(3)] == [first] * 3
    assert store._installed.cache_info().misses == misses


def test_the_key_changes_with_the_snippet_and_the_environment():
    env = store.environment()
    key = store.record_key(b"print(1)", env, process.RUNNER)
    assert key == store.record_key(b"print(1)", dict(env), process.RUNNER)
    for other in (store.record_key(b"print(2)", env, process.RUNNER),
                  store.record_key(b"print(1)", env | {"lock": "x"}, process.RUNNER),
                  store.record_key(b"print(1)", env | {"backend": "jax-cuda13-plugin==0.12.0"}, process.RUNNER),
                  store.record_key(b"print(1)", env, "other-runner")):
        assert other != key
