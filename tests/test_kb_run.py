"""The run core (kb.run): free of Sphinx, platform noise recorded but not failed, many programs in one process."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

from tools.site import ROOT

EXT = ROOT / "docs" / "_ext"  # kb is importable already (pyproject.toml, pythonpath); EXT is for a fresh interpreter

from kb.run.batch import run_group  # noqa: E402
from kb.run.noise import split  # noqa: E402
from kb.run.process import reader_environment  # noqa: E402
from kb.run.runner import Job, run_one  # noqa: E402
from kb.run.store import problem  # noqa: E402


def test_the_run_core_imports_without_sphinx_docutils_or_myst_nb():
    blocker = textwrap.dedent(f"""
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in ("sphinx", "docutils", "myst_nb", "myst_parser"):
                    raise ImportError("blocked: " + name)
        sys.meta_path.insert(0, Block())
        sys.path.insert(0, {str(EXT)!r})
        import kb.run, kb.run.batch, kb.run.precision, kb.run.noise, kb.run.plan, kb.run.schedule, kb.run.snippet
        import kb.run.process, kb.run.store, kb.run.runner, kb.run.platforms
        import kb.run.child  # the child script imports as a module too (kb.run.batch loads it by path)
        print("ok")
    """)
    run = subprocess.run([sys.executable, "-c", blocker], capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr


def _job(folder: Path, name: str, code: str) -> Job:
    path = folder / f"{name}.py"
    path.write_text(textwrap.dedent(code), encoding="utf-8")
    return Job(path, f"snippets/t/{name}.py", name)


NOISY = '''
    import warnings
    warnings.warn_explicit("Transparent hugepages are not enabled. TPU runtime startup and shutdown time should be "
                           "significantly improved on TPU v5e and newer.", UserWarning,
                           "/site/jax/_src/cloud_tpu_init.py", 90)
    print("computed")
'''


def test_platform_noise_is_recorded_and_does_not_fail_a_run_but_the_programs_own_warning_does(tmp_path):
    quiet = run_one(_job(tmp_path, "noisy", NOISY), timeout=60)
    assert "Transparent hugepages" in quiet["stderr"]  # the record keeps what the program wrote
    assert split(quiet["stderr"])[1] == ["tpu-hugepages"] and problem(quiet) is None
    own = run_one(_job(tmp_path, "own", textwrap.dedent(NOISY) + "warnings.warn('mine')\n"), timeout=60)
    assert split(own["stderr"])[1] == ["tpu-hugepages"]
    assert problem(own).startswith("wrote to stderr:") and "mine" in problem(own)


def test_programs_in_one_process_each_start_from_a_fresh_state(tmp_path):
    (tmp_path / "helper_mod.py").write_text("VALUE = 1\n", encoding="utf-8")
    first = _job(tmp_path, "first", '''
        import os, sys, warnings, logging
        import numpy as np
        import jax
        import torch
        import helper_mod
        jax.config.update("jax_enable_x64", True)
        torch.set_grad_enabled(False)
        torch.set_default_dtype(torch.float64)
        os.environ["KB_LEFT_BEHIND"] = "1"
        np.set_printoptions(precision=2)
        warnings.simplefilter("ignore")
        logging.getLogger().setLevel(logging.DEBUG)
        sys.argv.append("extra")
        open("left.txt", "w").write("x")
        print(jax.numpy.ones(1).dtype)
    ''')
    second = _job(tmp_path, "second", '''
        import os, sys, warnings, logging
        import numpy as np
        import jax
        import torch
        assert not jax.config.jax_enable_x64, "JAX configuration leaked"
        assert torch.is_grad_enabled() and torch.get_default_dtype() == torch.float32, "PyTorch state leaked"
        assert "KB_LEFT_BEHIND" not in os.environ, "environment leaked"
        assert np.get_printoptions()["precision"] == 8, "NumPy options leaked"
        assert logging.getLogger().level == logging.WARNING, "logging leaked"
        assert sys.argv == [__file__], sys.argv
        assert os.listdir(".") == [], "working directory shared"
        assert "helper_mod" not in sys.modules, "a module of the program's folder leaked"
        assert any(f[0] == "error" and f[2] is DeprecationWarning for f in warnings.filters), "warning filters leaked"
        print(jax.numpy.ones(1).dtype)
    ''')
    records = run_group([{"path": str(j.path), "name": j.name} for j in (first, second)], reader_environment(),
                        tmp_path / "state", timeout=120, deadline=time.time() + 300)
    assert records[first.name]["stdout"] == "float64\n" and problem(records[first.name]) is None
    assert problem(records[second.name]) is None, records[second.name]["stderr"]
    assert records[second.name]["stdout"] == "float32\n"
    assert records[second.name]["ran_with"]["devices"][0]["backend"] == "cpu"


def test_no_program_sees_an_earlier_programs_device_arrays(tmp_path):
    """A library cache that keeps a program's function (so its globals) or an array itself must not
    carry that program's arrays into the next one's memory figures (the TPU pass of 2026-12-06 printed
    23.5 MiB of live arrays in performance/oom_profile_jax.py, 8 of them its own)."""
    via_function = _job(tmp_path, "via_function", '''
        import functools
        import jax.numpy as jnp
        big = jnp.ones((256, 1024))
        def step(x):
            return x + big
        functools._kb_cache = step  # as a library's cache keeps a function: with it, these globals
        print(step(1.0).shape)
    ''')
    check = '''
        import jax
        print(len(jax.live_arrays()))
        assert not jax.live_arrays(), [a.shape for a in jax.live_arrays()]
    '''
    after_function = _job(tmp_path, "after_function", check)
    via_library = _job(tmp_path, "via_library", '''
        import json
        import jax.numpy as jnp
        json._kb_cache = jnp.ones((256, 1024))  # an array a library holds itself
        print("held")
    ''')
    after_library = _job(tmp_path, "after_library", check)
    jobs = (via_function, after_function, via_library, after_library)
    records = run_group([{"path": str(j.path), "name": j.name} for j in jobs], reader_environment(),
                        tmp_path / "state", timeout=120, deadline=time.time() + 300)
    for job in jobs:
        assert problem(records[job.name]) is None, records[job.name]["stderr"]
    assert records[after_function.name]["stdout"] == records[after_library.name]["stdout"] == "0\n"
    log = (tmp_path / "state" / "worker.log").read_text(encoding="utf-8")
    assert f"{via_library.name} left 1 device arrays alive" in log and via_function.name not in log


def test_a_shared_process_keeps_every_pythonpath_entry(tmp_path):
    """As under `python SNIPPET`, the program's folder comes first and PYTHONPATH's entries follow,
    all of them (the worker once let the program's folder take the first entry's place)."""
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "kb_extra_mod.py").write_text("VALUE = 7\n", encoding="utf-8")
    job = _job(tmp_path, "pythonpath", '''
        import os, sys
        import kb_extra_mod
        assert sys.path[0] == os.path.dirname(os.path.abspath(__file__)), sys.path[:3]
        print(kb_extra_mod.VALUE)
    ''')
    env = dict(reader_environment(), PYTHONPATH=str(extra))
    records = run_group([{"path": str(job.path), "name": job.name}], env, tmp_path / "state", timeout=60,
                        deadline=time.time() + 120)
    assert problem(records[job.name]) is None, records[job.name]["stderr"]
    assert records[job.name]["stdout"] == "7\n"


def test_a_hung_or_crashed_program_is_recorded_and_the_rest_still_run(tmp_path):
    jobs = [_job(tmp_path, "hangs", "import time\nprint('start', flush=True)\ntime.sleep(60)\n"),
            _job(tmp_path, "aborts", "import os\nos.abort()\n"),
            _job(tmp_path, "fine", "print('fine')\n")]
    records = run_group([{"path": str(j.path), "name": j.name} for j in jobs], reader_environment(), tmp_path / "s",
                        timeout=3, deadline=time.time() + 120)
    assert records["snippets/t/hangs.py"]["timed_out"] and problem(records["snippets/t/hangs.py"]).startswith("still running")
    assert records["snippets/t/aborts.py"]["returncode"] != 0 and not records["snippets/t/aborts.py"]["timed_out"]
    assert records["snippets/t/fine.py"]["stdout"] == "fine\n"
    # Resumable: a second call runs nothing that is recorded.
    lines = (tmp_path / "s" / "results.jsonl").read_text().count("\n")
    run_group([{"path": str(j.path), "name": j.name} for j in jobs], reader_environment(), tmp_path / "s",
              timeout=3, deadline=time.time() + 60)
    assert (tmp_path / "s" / "results.jsonl").read_text().count("\n") == lines


def test_a_relative_state_folder_works_and_a_worker_that_cannot_start_leaves_nothing_recorded(tmp_path, monkeypatch):
    """The TPU pass of 2026-12-06 lost two calls to a relative state path (the worker runs elsewhere)
    and to the failures it caused being kept: every program then re-ran alone, ten times slower."""
    job = _job(tmp_path, "fine", "print('fine')\n")
    monkeypatch.chdir(tmp_path)
    broken = {**reader_environment(), "PYTHONHOME": str(tmp_path / "no-python-here")}  # Python cannot start
    records = run_group([{"path": str(job.path), "name": job.name}], broken, Path("rel"), timeout=30,
                        deadline=time.time() + 60)
    assert records[job.name]["stderr"].startswith("worker failed to start") and problem(records[job.name])
    assert not (tmp_path / "rel" / "results.jsonl").exists() or "record" not in (tmp_path / "rel" / "results.jsonl").read_text()
    records = run_group([{"path": str(job.path), "name": job.name}], reader_environment(), Path("rel"), timeout=30,
                        deadline=time.time() + 60)
    assert records[job.name]["stdout"] == "fine\n" and problem(records[job.name]) is None


def test_a_group_past_its_deadline_starts_no_program(tmp_path):
    job = _job(tmp_path, "late", "print(1)\n")
    records = run_group([{"path": str(job.path), "name": job.name}], reader_environment(), tmp_path / "s",
                        timeout=3, deadline=time.time() - 1)
    assert records == {}


def test_a_program_expected_to_end_past_the_deadline_does_not_start_and_a_shorter_one_still_does(tmp_path):
    """A call of the TPU pass must end inside the device's 10 minutes: a program that would be cut
    off is left for the next call instead of being lost half-run."""
    long, short = _job(tmp_path, "long", "print('long')\n"), _job(tmp_path, "short", "print('short')\n")
    jobs = [{"path": str(long.path), "name": long.name, "expect": 600.0},
            {"path": str(short.path), "name": short.name, "expect": 1.0}]
    records = run_group(jobs, reader_environment(), tmp_path / "s", timeout=30, deadline=time.time() + 120)
    assert set(records) == {short.name} and records[short.name]["stdout"] == "short\n"
    assert long.name not in (tmp_path / "s" / "results.jsonl").read_text()  # never started: the next call runs it
