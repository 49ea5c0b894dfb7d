"""Unit tests of kb.run.runner, kb.run.preload and kb.run.store: a snippet runs as a reader runs it,
records are whole or absent, shards split the work, and records made differently are refused."""

from __future__ import annotations

import json
import os

import pytest

from kb import reader
from kb.run import preload, process, runner, snippet, store


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


def test_timing_snippets_run_after_the_others_one_at_a_time(tmp_path):
    for name, code in [("a", "print(1)\n"), ("t", f"{snippet.TIMINGS}\nprint(2)\n"), ("b", "print(3)\n")]:
        (tmp_path / "snippets" / "sec").mkdir(parents=True, exist_ok=True)
        (tmp_path / "snippets" / "sec" / f"{name}.py").write_text(f'"""{name}."""\n{code}', encoding="utf-8")
    jobs = [runner.job(p, tmp_path) for p in sorted((tmp_path / "snippets" / "sec").glob("*.py"))]
    order = []
    runner.run_all(jobs, tmp_path / "store", timeout=60, workers=2, done=lambda r: order.append(r["snippet"]))
    assert order[-1] == "snippets/sec/t.py" and sorted(order[:2]) == ["snippets/sec/a.py", "snippets/sec/b.py"]
    alone = {r["snippet"]: r["alone"] for r in map(store.read_record, (tmp_path / "store").rglob("*.json"))}
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


# --------------------------------------------------------------------------------------------
# Preloaded starts: a child forked after the program's own opening imports is a reader's process
# --------------------------------------------------------------------------------------------


def _run_all(tmp_path, programs, *, preloads=True, timeout=60, env=None, monkeypatch=None):
    """Run ``programs`` ({name: code}) with run_all, forked (the default) or all cold."""
    folder = tmp_path / ("forked" if preloads else "cold")
    paths = []
    for name, code in programs.items():
        path = folder / "snippets" / "sec" / f"{name}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(code, encoding="utf-8")
        paths.append(path)
    monkeypatch.setattr(preload, "PRELOADS", preloads)
    for key, value in (env or {}).items():
        monkeypatch.setenv(key, value)
    done = runner.run_all([runner.job(p, folder) for p in paths], folder / "store", timeout=timeout, workers=2)
    return {r["snippet"].rsplit("/", 1)[1][:-3]: r for r in done}


LOOKS_AROUND = ('"""Looks around."""\nimport atexit, os, sys\nimport numpy\n\n'
                'print(sorted(k for k in os.environ if k.startswith(("JAX_", "XLA_", "KB_"))), os.listdir("."))\n'
                'print(sys.stdin.read() == "", __name__, sys.argv[0].endswith("{name}.py"), os.getsid(0) == os.getpid())\n'
                'print(sys.path[0].endswith("sec"), "numpy" in sys.modules, "torch" in sys.modules, flush=True)\n'
                'import subprocess\n'  # a program it starts gets its standard streams (nvcc needs a stdin)
                'subprocess.run([sys.executable, "-c", "import os; [os.fstat(fd) for fd in (0, 1, 2)]; print(\'inherited\')"], check=True)\n'
                'atexit.register(print, "at exit")\n'
                'print(" ".join(sorted(sys.modules)), file=open(os.environ["MODULES_FILE"], "a"))\n')


def test_a_forked_snippet_sees_what_a_cold_one_sees(tmp_path, monkeypatch):
    """Same environment, empty folder, no stdin, __main__, argv, its own session, sys.path[0],
    standard streams that a program it starts inherits, and it ends as an interpreter does (atexit
    runs); only its start was shorter."""
    programs = {name: LOOKS_AROUND.replace("{name}", name) for name in ("a", "b")}
    env = {"JAX_PLATFORMS": "cpu", "KB_SECRET": "1", "MODULES_FILE": str(tmp_path / "forked-modules")}
    forked = _run_all(tmp_path, programs, env=env, monkeypatch=monkeypatch)
    env["MODULES_FILE"] = str(tmp_path / "cold-modules")
    cold = _run_all(tmp_path, programs, preloads=False, env=env, monkeypatch=monkeypatch)
    modules = {kind: [set(line.split()) for line in (tmp_path / f"{kind}-modules").read_text().splitlines()]
               for kind in ("forked", "cold")}
    for forked_modules, cold_modules in zip(*modules.values()):  # the same modules, but the server's select
        assert forked_modules - cold_modules <= {"select"} and cold_modules <= forked_modules, (
            forked_modules ^ cold_modules)
    for name in programs:
        assert forked[name]["returncode"] == 0 and forked[name]["stderr"] == "", forked[name]["stderr"]
        assert forked[name]["preloaded"] == ["import numpy"] and cold[name]["preloaded"] == []
        assert forked[name]["stdout"] == cold[name]["stdout"] == (
            "['XLA_PYTHON_CLIENT_PREALLOCATE'] []\nTrue __main__ True True\nTrue True False\ninherited\nat exit\n")
        assert forked[name]["ran_with"]["packages"] == cold[name]["ran_with"]["packages"]


def test_a_prelude_setting_is_in_place_before_the_import_that_reads_it(tmp_path, monkeypatch):
    """JAX reads JAX_NUM_CPU_DEVICES at import: the server sets it first, as the program does."""
    code = ('"""Three devices."""\nimport os\n\nos.environ.setdefault("JAX_NUM_CPU_DEVICES", "3")\nimport jax\n\n'
            'print(jax.device_count(), os.environ["JAX_NUM_CPU_DEVICES"])\n')
    forked = _run_all(tmp_path, {"a": code, "b": code}, monkeypatch=monkeypatch)
    for record in forked.values():
        assert record["preloaded"][:2] == ["import os", "os.environ.setdefault('JAX_NUM_CPU_DEVICES', '3')"]
        assert record["stdout"] == "3 3\n", record["stderr"]


def test_a_prelude_that_writes_anything_runs_cold_so_the_record_shows_it(tmp_path, monkeypatch):
    """A warning at import would be printed once, in the server: those snippets run cold instead."""
    package = tmp_path / "site" / "noisy_pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text('import warnings\nwarnings.warn("noisy at import", UserWarning)\n',
                                         encoding="utf-8")
    code = '"""Imports a noisy package."""\nimport noisy_pkg\n\nprint("ran")\n'
    forked = _run_all(tmp_path, {"a": code, "b": code}, env={"PYTHONPATH": str(tmp_path / "site")},
                      monkeypatch=monkeypatch)
    for record in forked.values():
        assert record["preloaded"] == [] and record["stdout"] == "ran\n"
        assert "UserWarning: noisy at import" in record["stderr"]


def test_a_forked_snippet_that_fails_or_hangs_is_reported_like_a_cold_one(tmp_path, monkeypatch):
    programs = {"fails": '"""Fails."""\nimport numpy\n\nassert numpy.int8(1) == 2, "no"\n',
                "hangs": '"""Hangs."""\nimport numpy\nimport time\n\nwhile True:\n    time.sleep(0.1)\n'}
    forked = _run_all(tmp_path, programs, timeout=3, monkeypatch=monkeypatch)
    assert forked["fails"]["preloaded"] == ["import numpy"] and forked["fails"]["returncode"] == 1
    assert forked["fails"]["error_line"] == 4 and 'File "snippets/sec/fails.py", line 4' in forked["fails"]["stderr"]
    assert forked["hangs"]["timed_out"] and "still running after the 3 s timeout" in store.problem(forked["hangs"])


def test_a_module_in_the_snippets_folder_keeps_it_cold(tmp_path):
    """The server imports from an empty folder; a snippet's folder could shadow the package."""
    (tmp_path / "numpy.py").write_text("", encoding="utf-8")
    assert preload.shadowed(tmp_path / "a.py", ("import numpy",))
    assert not preload.shadowed(tmp_path / "a.py", ("import jax",))


def test_a_longer_prelude_is_served_by_a_fork_of_the_shorter_one(tmp_path, monkeypatch):
    """numpy is imported once for all four programs, the package after it once for its two."""
    site = tmp_path / "site"
    (site / "counted_pkg").mkdir(parents=True)
    (site / "counted_pkg" / "__init__.py").write_text(
        f'with open({str(tmp_path / "imports")!r}, "a") as f:\n    f.write("imported\\n")\n', encoding="utf-8")
    short = '"""Short."""\nimport numpy\n\nprint(numpy.zeros(2).sum())\n'
    longer = '"""Longer."""\nimport numpy\nimport counted_pkg\n\nprint(numpy.ones(2).sum())\n'
    forked = _run_all(tmp_path, {"a": short, "b": short, "c": longer, "d": longer},
                      env={"PYTHONPATH": str(site)}, monkeypatch=monkeypatch)
    assert {n: r["preloaded"] for n, r in forked.items()} == {
        "a": ["import numpy"], "b": ["import numpy"],
        "c": ["import numpy", "import counted_pkg"], "d": ["import numpy", "import counted_pkg"]}
    assert [r["stdout"] for r in forked.values()].count("2.0\n") == 2
    assert (tmp_path / "imports").read_text(encoding="utf-8") == "imported\n"  # once, in its server
