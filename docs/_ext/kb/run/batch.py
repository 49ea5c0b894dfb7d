"""kb.run.batch: many programs, one after another, in one shared process.

A fresh interpreter per program pays its start, its imports (``import jax`` about 1 s on the
build's machine, ``torch`` 3.7 s), JAX's first-use set-up and, on a TPU, opening the chip
(8-15 s, and one process at a time may hold it): most of a short program's time. Here one worker
process imports the libraries once and runs a group of programs in turn, each as
``kb/run/child.py`` runs it in a fresh process (its own ``__main__`` module, its file name in tracebacks, deprecations as
errors, figures as SVG, a note of what it ran with), with what one program could leave behind for
the next restored in between:

1. **Per program**: an empty working directory; stdout and stderr redirected at the descriptor
   level to files of its own (so C++ logs and child processes land there too, as in a fresh
   process); ``sys.argv``, ``sys.path``, ``os.environ``, the working directory,
   ``sys.stdout``/``sys.stderr`` objects, the warning filters (and with them Python's "shown once"
   registries), the root logger, NumPy's error and print options, matplotlib's rc settings,
   PyTorch's default dtype, grad mode, thread count and float32 matmul precision and its compiler's
   caches (``torch._dynamo.reset``), every JAX configuration value, the ``jax.monitoring``
   listeners, JAX's compilation caches (``jax.clear_caches``) and its persistent-cache state
   (``compilation_cache.reset_cache``) are put back; modules the program imported from its own
   folder are forgotten; its module's globals are cleared, as at the end of a process (a library's
   cache that still holds one of its functions would otherwise keep every array of the program
   alive: a TPU pass measured 15 MiB of earlier programs' arrays in a memory program's figures),
   and its objects are collected (device buffers freed). A program that still leaves device
   arrays alive (held by a library itself) ends the worker: a new one runs the rest.
2. **The worker's environment** is the group's: the reader's environment (``kb.run.process``)
   plus the settings the group's programs make before importing JAX
   (``kb.run.schedule.batch_group``), set before the worker imports anything, as each program would
   have set them. A worker for ``nox -s precision`` installs the emulated precision first
   (``kb/run/child.py``'s ``emulate``).
   The libraries whose state is put back (NumPy, JAX, PyTorch, matplotlib) are imported by the
   worker before its first program, so that what is put back is their state on import.
3. **Bounded**: a program still running after the timeout ends the worker (``faulthandler``
   writes its stack to the worker's log and exits); the supervisor (``run_group``) records it as
   timed out and starts a new worker for the rest. A worker that dies otherwise (an abort in the
   runtime) is recorded the same way, with the end of its log as the program's stderr.
4. **Resumable**: each record is appended to ``results.jsonl`` as soon as its program ends, after
   a ``start`` line; a worker starts no program expected to end after the group's deadline (a job's
   ``expect``: its seconds on an earlier run, 0 when unknown), so a call cut to a time limit loses
   nothing already run, and the next call runs only what is left.

What this changes against a fresh process, stated so that a result can be weighed: the modules
are imported and the device opened before the program starts, JAX's one-time set-up is done, a
library's "warn once" that lives in its own flag (not in Python's warning registry) fires only for
the first program of a worker, and an ``atexit`` handler runs when the worker ends, not when the
program does. So the scheduler (``kb.run.schedule``) runs again, alone in a fresh process, every
program that fails here before the failure counts; a program whose output would differ says so
(``kb.run.snippet.FRESH``) and always runs in a fresh process; and ``tests/test_reproducible.py``
runs a sample of the programs that shared a process again in fresh ones and compares their outputs.

Why our own code: ``runpy`` runs a script in-process but restores none of this state, and
sphinx-gallery's in-process executor (``reset_modules``) serves its gallery, not a TPU pass.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

if TYPE_CHECKING:  # the worker runs as a script, with the standard library and the child script only
    from .store import RunResult

SCRIPT = Path(__file__).resolve()
CHILD = SCRIPT.with_name("child.py")


def ends_in_time(expect: float, deadline: float) -> bool:
    """Whether a program expected to take ``expect`` seconds, started now, ends by ``deadline``
    (the one rule for the worker, ``run_group`` and the TPU pass's other lanes)."""
    return time.time() + expect <= deadline


# --------------------------------------------------------------------------------------------
# The worker (this file run as a script)
# --------------------------------------------------------------------------------------------


def _snapshot() -> dict[str, Any]:
    import logging
    import warnings

    state: dict[str, Any] = {
        "cwd": os.getcwd(), "argv": list(sys.argv), "path": list(sys.path), "environ": dict(os.environ),
        "main": sys.modules.get("__main__"), "stdout": sys.stdout, "stderr": sys.stderr,
        "filters": list(warnings.filters), "modules": set(sys.modules),
        "root": (logging.root.level, list(logging.root.handlers)),
    }
    if "numpy" in sys.modules:
        import numpy as np

        state["numpy"] = (np.geterr(), np.get_printoptions())
    if "torch" in sys.modules:
        import torch

        state["torch"] = (torch.get_default_dtype(), torch.get_num_threads(), torch.get_float32_matmul_precision(),
                          torch.is_grad_enabled())
    if "jax" in sys.modules:
        import jax
        from jax._src import monitoring

        state["jax"] = dict(jax.config.values)
        state["listeners"] = {name: list(value) for name, value in vars(monitoring).items()
                              if name.endswith("_listeners") and isinstance(value, list)}
    return state


def _restore(state: dict[str, Any], folder: Path) -> None:
    import logging
    import warnings

    if "torch._dynamo" in sys.modules:  # compiled frames guard the program's globals: forget them first
        import torch._dynamo

        torch._dynamo.reset()
    os.chdir(state["cwd"])
    sys.argv[:] = state["argv"]
    sys.path[:] = state["path"]
    os.environ.clear()
    os.environ.update(state["environ"])
    program = sys.modules.get("__main__")
    if program is not None and program is not state["main"]:
        # As the interpreter does when a process ends: the program's globals go, even where a
        # library's cache still refers to one of its functions (whose __globals__ is this dict),
        # so that its arrays are freed and the next program starts with none of them alive.
        program.__dict__.clear()
    if state["main"] is not None:
        sys.modules["__main__"] = state["main"]
    sys.stdout, sys.stderr = state["stdout"], state["stderr"]
    warnings.filters[:] = state["filters"]
    warnings._filters_mutated()  # every module's "shown once" registry is stale again
    logging.root.setLevel(state["root"][0])
    logging.root.handlers[:] = state["root"][1]
    for name in set(sys.modules) - state["modules"]:  # the program's own modules, from its folder
        file = getattr(sys.modules.get(name), "__file__", None) or ""
        if file and Path(file).resolve().is_relative_to(folder):
            del sys.modules[name]
    if "numpy" in state:
        import numpy as np

        np.seterr(**state["numpy"][0])
        np.set_printoptions(**state["numpy"][1])
    if "matplotlib" in sys.modules:
        import matplotlib
        import matplotlib.pyplot as plt

        plt.close("all")
        matplotlib.rc_file_defaults()
    if "torch" in sys.modules:
        import torch

        dtype, threads, precision, grad = state.get("torch", (torch.float32, torch.get_num_threads(), "highest", True))
        torch.set_grad_enabled(grad)
        torch.set_default_dtype(dtype)
        torch.set_num_threads(threads)
        torch.set_float32_matmul_precision(precision)
    if "jax" in sys.modules:
        import jax

        before = state.get("jax")
        if before is not None:
            for name, value in before.items():
                if jax.config.values.get(name) != value:
                    try:
                        jax.config.update(name, value)
                    except Exception:  # noqa: BLE001 (a value that can no longer change, e.g. after the backend started)
                        pass
        from jax._src import monitoring

        for name, listeners in state.get("listeners", {}).items():  # jax.monitoring's, as on import
            getattr(monitoring, name)[:] = listeners
        jax.clear_caches()
        try:
            from jax._src import compilation_cache

            compilation_cache.reset_cache()
        except Exception:  # noqa: BLE001 (an older or newer JAX without it)
            pass
    gc.collect()  # the program's objects, device buffers among them, freed now
    gc.freeze()  # and what is left, the worker's own, is not scanned again: a full collection took 0.14 s


def _run_one(child, job: dict[str, Any], timeout: float, log) -> RunResult:
    import faulthandler

    path = Path(job["path"])
    with tempfile.TemporaryDirectory(prefix="kb-batch-") as work:
        cwd = Path(work) / "cwd"
        cwd.mkdir()
        out_path, err_path, notes_path = Path(work) / "stdout", Path(work) / "stderr", Path(work) / "notes.json"
        state = _snapshot()
        child.FIGURES.clear()
        sys.stdout.flush()
        sys.stderr.flush()
        saved = os.dup(1), os.dup(2)
        out_fd = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        err_fd = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(out_fd, 1)
        os.dup2(err_fd, 2)
        os.close(out_fd)
        os.close(err_fd)
        os.chdir(cwd)
        faulthandler.dump_traceback_later(timeout, exit=True, file=log)
        start = time.perf_counter()
        try:
            code = child.main(str(path), job["name"], str(notes_path))
        finally:
            seconds = time.perf_counter() - start
            faulthandler.cancel_dump_traceback_later()
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            except Exception:  # noqa: BLE001 (a program that closed its streams)
                pass
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
            _restore(state, path.parent.resolve())
        try:
            notes = json.loads(notes_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            notes = {}
        stdout = out_path.read_bytes().decode("utf-8", "replace")
        stderr = err_path.read_bytes().decode("utf-8", "replace")
    return {"returncode": code, "timed_out": False, "seconds": round(seconds, 3), "stdout": stdout,
            "stderr": stderr, "figures": notes.get("figures", []), "error_line": notes.get("error_line"),
            "ran_with": notes.get("ran_with", {})}


def worker(jobs_file: str, results: str, timeout: str, deadline: str, log_path: str, precision: str = "") -> int:
    """Run the jobs of ``jobs_file`` in this process, appending to ``results``; stop past ``deadline``."""
    import importlib.util

    # sys.path[0] is the slot where `python SNIPPET` puts the program's folder, and child.main puts
    # it there (removing it made child.main overwrite the first PYTHONPATH entry: a control run lost
    # its site-packages, "No module named 'absl'"). Until then it is the worker's empty working
    # folder, not this one: kb/run's modules are not the libraries' to import.
    sys.path[0] = os.getcwd()
    spec = importlib.util.spec_from_file_location("kb_child", CHILD)  # the build's own child script, by path
    child = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(child)
    if precision:
        child.emulate(precision)
    jobs = json.loads(Path(jobs_file).read_text(encoding="utf-8"))
    # The libraries whose state is restored between programs are imported first, so that the state
    # to restore is their state on import (importing JAX starts no backend; the first program does).
    texts = "\n".join(Path(job["path"]).read_text(encoding="utf-8") for job in jobs)
    for name in ("numpy", "jax", "torch", "matplotlib"):
        if name == "numpy" or f"import {name}" in texts or f"from {name}" in texts:
            try:
                __import__(name)
            except ImportError:
                pass
    with open(log_path, "a", encoding="utf-8") as log, open(results, "a", encoding="utf-8") as out:
        for job in jobs:
            if not ends_in_time(job.get("expect", 0), float(deadline)):
                continue  # it would end past the deadline: a shorter one after it may still fit
            out.write(json.dumps({"event": "start", "name": job["name"], "time": time.time()}) + "\n")
            out.flush()
            record = _run_one(child, job, float(timeout), log)
            out.write(json.dumps({"event": "record", "name": job["name"], "record": record}) + "\n")
            out.flush()
            os.fsync(out.fileno())
            if child.jax_started():  # (jax.live_arrays() would start a backend that no program started)
                import jax

                if jax.live_arrays():  # held by a library, not by the program's globals: only a new process frees them
                    print(f"{job['name']} left {len(jax.live_arrays())} device arrays alive: a new worker runs the rest",
                          file=log, flush=True)
                    return 0
    return 0


# --------------------------------------------------------------------------------------------
# The supervisor
# --------------------------------------------------------------------------------------------


def read_results(path: Path) -> tuple[dict[str, dict[str, Any]], dict[str, float]]:
    """(records by snippet name, start time of each program that started but has no record)."""
    records: dict[str, dict[str, Any]] = {}
    started: dict[str, float] = {}
    if not path.exists():
        return records, started
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue  # a line cut by a killed worker
        if event.get("event") == "start":
            started[event["name"]] = event["time"]
        elif event.get("event") == "record":
            records[event["name"]] = event["record"]
            started.pop(event["name"], None)
    return records, started


def run_group(jobs: Iterable[dict[str, Any]], env: dict[str, str], folder: Path, *, timeout: float,
              deadline: float, precision: str | None = None,
              progress: Callable[[str, RunResult], None] | None = None) -> dict[str, RunResult]:
    """Run ``jobs`` (dicts with ``path``, ``name`` and optionally ``expect``, the seconds it is expected
    to take) in as few workers as it takes; records by name. A job expected to end after ``deadline``
    does not start.

    ``folder`` keeps ``results.jsonl`` and the workers' log; a program already recorded there is not
    run again. A worker that ends with a program started and unrecorded (a timeout, an abort)
    leaves that program recorded as failed, and a new worker goes on with the rest. ``progress``
    hears of each record as its program ends. A worker that cannot start at all (a bad environment)
    fails every remaining program, but only in what this call returns: nothing is kept in
    ``results.jsonl``, so the next call tries them again.
    """
    from .process import WARNINGS_AS_ERRORS  # (this module's supervisor half runs inside the kb.run package)

    folder = Path(folder).resolve()  # the worker runs in a folder of its own: a relative path would miss
    folder.mkdir(parents=True, exist_ok=True)
    results, log = folder / "results.jsonl", folder / "worker.log"
    jobs = list(jobs)
    unstarted: dict[str, dict[str, Any]] = {}
    while time.time() < deadline:
        done, started = read_results(results)
        remaining = [j for j in jobs if j["name"] not in done and ends_in_time(j.get("expect", 0), deadline)]
        if not remaining:
            break
        jobs_file = folder / "jobs.json"
        jobs_file.write_text(json.dumps(remaining), encoding="utf-8")
        size = log.stat().st_size if log.exists() else 0
        with tempfile.TemporaryDirectory(prefix="kb-worker-") as cwd, open(log, "a") as log_file:
            process = subprocess.Popen(
                [sys.executable, *WARNINGS_AS_ERRORS, str(SCRIPT), "--worker", str(jobs_file), str(results),
                 str(timeout), str(deadline), str(log), precision or ""], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True)
            seen = set(done)
            while process.poll() is None:
                time.sleep(1)
                if progress is not None:
                    now, _ = read_results(results)
                    for name in [n for n in now if n not in seen]:
                        seen.add(name)
                        progress(name, now[name])
        done, started = read_results(results)
        lost = [name for name in started if name not in done]
        if not lost:
            if process.returncode != 0 and all(j["name"] not in done for j in remaining):
                tail = log.read_text(encoding="utf-8", errors="replace")[size:][-4000:]
                unstarted = {j["name"]: {"returncode": process.returncode, "timed_out": False, "seconds": 0.0,
                                         "stdout": "", "stderr": "worker failed to start:\n" + tail,
                                         "figures": [], "error_line": None, "ran_with": {}} for j in remaining}
                break  # the worker could not start at all: say why, once per program, and keep nothing
            continue
        tail = log.read_text(encoding="utf-8", errors="replace")[size:][-4000:]
        for name in lost:
            seconds = time.time() - started[name]
            _append(results, name, {"returncode": process.returncode or -1, "timed_out": seconds >= timeout,
                                    "seconds": round(min(seconds, timeout), 3), "stdout": "",
                                    "stderr": f"the worker process ended during this program:\n{tail}",
                                    "figures": [], "error_line": None, "ran_with": {}})
    return {**unstarted, **read_results(results)[0]}


def _append(results: Path, name: str, record: dict[str, Any]) -> None:
    with open(results, "a", encoding="utf-8") as out:
        out.write(json.dumps({"event": "record", "name": name, "record": record}) + "\n")


if __name__ == "__main__":
    if len(sys.argv) == 8 and sys.argv[1] == "--worker":
        sys.exit(worker(*sys.argv[2:]))
    sys.exit("usage: batch.py --worker JOBS RESULTS TIMEOUT DEADLINE LOG PRECISION (started by kb.run.batch.run_group)")
