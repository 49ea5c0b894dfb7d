"""kb.run.schedule: the one scheduler, and the device policy it applies.

Every run of many programs goes through ``run``: the site's build (``kb.execution``), its shards
(``tools/shards.py``), the canary, the precision check and a machine pass
(``tools/machine/report.py``). How it runs them depends on the platform (``kb.run.platforms``):

1. **Shared processes where a program allows it.** ``batch_group(source)`` is the environment of
   the shared process a program may run in (``kb.run.batch``): the constant settings of its
   opening lines (``kb.run.snippet.opening_settings``; ``JAX_NUM_CPU_DEVICES=8`` for the
   multi-device programs), so that programs with the same settings share a worker. It is None for a
   program that needs a process of its own: one that changes JAX's environment or platform later
   than its opening lines, uses ``multiprocessing``, or says so (``kb.run.snippet.FRESH``). Those
   run in a fresh process each (``kb.run.runner``). A program that fails in a shared process runs
   again in a fresh one, and that run counts (its record names the first failure, ``first_try``).
2. **As many at once as the platform allows.** On a platform that can be shared (the CPU, a GPU)
   ``workers`` programs run at once (default: the cores): each group's programs are split over
   ``workers`` shared workers, balanced by their expected seconds (``cost``), and the workers and
   the fresh processes are started longest first. On an exclusive one (a TPU) one device program
   runs at a time, each group in one worker, while the programs that start no accelerator
   (``lane(source) == "side"``) run beside it, ``workers`` at a time.
3. **Timing programs last, alone.** A program that prints timings (``kb.run.snippet.is_timing``)
   runs after all the others, one at a time with nothing else running, in a shared worker of its
   group where it can (its record says ``alone``).
4. **Within a deadline.** No program starts that is expected (``cost``) to end after ``deadline``
   (a machine pass in calls of 10 minutes): a shorter one after it may still run, and the next call
   runs the rest. The workers' state is kept in ``work`` (default: a temporary folder): a machine
   pass keeps it between calls, so that a program recorded there does not run again.

``done`` hears of each final record as soon as it is made (the build writes it at once).

Why our own code: the policy is this project's (which programs may share a process, what may run
beside a TPU); ``concurrent.futures`` is the pool it uses.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Iterable

from .batch import ends_in_time, run_group
from .platforms import Platform, current
from .process import reader_environment
from .runner import Job, run_one
from .snippet import JAX_LIBRARIES, fresh, is_timing, opening_settings, pins_own_process, starts_jax
from .store import Record, problem, record

JAX_IMPORT = re.compile(r"\b(?:import|from)\s+(?:" + "|".join(JAX_LIBRARIES) + r")\b")
LATE_SETTINGS = re.compile(r"os\.environ|putenv|jax_platforms|jax_num_cpu_devices|XLA_FLAGS|multiprocessing"
                           r"|jax\.distributed\.initialize")
Group = tuple[tuple[str, str], ...]


def lane(source: str) -> str:
    """``"side"`` (starts no accelerator) or ``"device"``.

    A program that starts other Python processes is a device program even if it imports no JAX
    itself, when its children may open the device: when its text, code or strings, imports a JAX
    library anywhere (``xla/ccache_serialize.py`` compiles in one child and loads in the next). One
    whose children run pip or PyTorch only (``install/mir_pip_config.py``) runs beside the device.

    >>> lane("import torch\\nprint(torch.ones(1))\\n"), lane("import jax\\nprint(jax.devices())\\n")
    ('side', 'device')
    >>> lane('import os\\nos.environ.setdefault("JAX_PLATFORMS", "cpu")  # CPU by design: XLA:CPU\\nimport jax\\n')
    'side'
    >>> lane("import subprocess, sys\\nsubprocess.run([sys.executable, '-c', 'import jax'])\\n")
    'device'
    """
    if pins_own_process(source):
        return "side"
    if starts_jax(source):
        return "device"
    if re.search(r"\bsubprocess\b|sys\.executable|multiprocessing", source) and JAX_IMPORT.search(source):
        return "device"
    return "side"


def batch_group(source: str) -> Group | None:
    """The environment of the shared process this program may run in, or None (a process of its own).

    >>> batch_group('import os\\nos.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")\\nimport jax\\nprint(1)\\n')
    (('JAX_NUM_CPU_DEVICES', '8'),)
    >>> batch_group("import jax\\nprint(1)\\n"), batch_group('import jax\\nimport os\\nos.environ["XLA_FLAGS"] = "--x"\\n')
    ((), None)
    >>> batch_group("import resource  # Runs in a fresh process: it prints its peak memory\\n") is None
    True
    """
    opening = opening_settings(source)
    if opening is None or fresh(source):
        return None
    settings, end = opening
    rest = "\n".join(line.partition("#")[0] for line in source.splitlines()[end:])
    return None if LATE_SETTINGS.search(rest) else settings


def split(jobs: list[Job], parts: int, cost: Callable[[Job], float]) -> list[list[Job]]:
    """``jobs`` in at most ``parts`` lists of about equal cost (longest first, each to the lightest).

    >>> jobs = [Job(Path(x), x, x) for x in "abcd"]
    >>> [[j.name for j in part] for part in split(jobs, 2, lambda j: {"a": 4, "b": 3, "c": 2, "d": 1}[j.name])]
    [['a', 'd'], ['b', 'c']]
    """
    loads: list[tuple[float, list[Job]]] = [(0.0, []) for _ in range(min(parts, len(jobs)))]
    for item in sorted(jobs, key=lambda j: (-cost(j), j.name)):
        index = min(range(len(loads)), key=lambda k: (loads[k][0], k))
        loads[index] = (loads[index][0] + cost(item), loads[index][1] + [item])
    return [part for _, part in loads]


def run(items: Iterable[Job], *, timeout: float, workers: int | None = None, platform: Platform | None = None,
        cost: dict[str, float] | None = None, deadline: float = math.inf, work: Path | None = None,
        done: Callable[[Record], None] | None = None) -> dict[str, Record]:
    """Run every job under the platform's policy (the module's docstring); the final records by name."""
    platform = platform or current()
    workers = workers or os.cpu_count() or 1
    expect = cost or {}
    seconds = lambda j: expect.get(j.name, 1.0)  # noqa: E731 (for the order; unknown: 1 s)
    items = list(dict.fromkeys(items))
    texts = {i.name: i.path.read_text(encoding="utf-8") for i in items}
    results: dict[str, Record] = {}
    lock = threading.Lock()
    temporary = tempfile.TemporaryDirectory(prefix="kb-schedule-") if work is None else None
    work = Path(temporary.name if temporary else work)

    def finish(final: Record) -> None:
        with lock:
            results[final["snippet"]] = final
        if done is not None:
            done(final)

    def alone_in_fresh(item: Job, alone: bool, first_try: str | None = None) -> None:
        if ends_in_time(expect.get(item.name, 0.0) + (platform.start_seconds if first_try else 0.0), deadline):
            finish(run_one(item, timeout, alone=alone, first_try=first_try))

    def shared(group: Group, jobs: list[Job], alone: bool, name: str) -> None:
        by_name, failed = {j.name: j for j in jobs}, {}

        def hear(snippet: str, result: dict) -> None:
            if snippet not in by_name:  # recorded there by an earlier call, for another selection
                return
            made = record(by_name[snippet], result, how="batch", alone=alone)
            if problem(made) is None:
                finish(made)
            else:
                failed[snippet] = problem(made)

        key = hashlib.sha256(repr((group, jobs[0].precision)).encode()).hexdigest()[:8]
        got = run_group([{"path": str(j.path), "name": j.name, "expect": expect.get(j.name, 0.0)} for j in jobs],
                        {**reader_environment(platform=platform), **dict(group)}, work / f"group-{key}-{name}",
                        timeout=timeout, deadline=deadline, precision=jobs[0].precision, progress=hear)
        for snippet, result in got.items():  # kept from an earlier call, or lost with a worker
            if snippet in by_name and snippet not in results and snippet not in failed:
                hear(snippet, result)
        for snippet, why in failed.items():  # a failure counts only when it fails in a fresh process too
            alone_in_fresh(by_name[snippet], alone or platform.exclusive, first_try=why)

    def tasks(jobs: list[Job], slots: int, alone: bool, lane: str) -> list[tuple[float, Callable[[], None]]]:
        groups: dict[Group, list[Job]] = {}
        found: list[tuple[float, Callable[[], None]]] = []
        for item in jobs:
            group = batch_group(texts[item.name])
            if group is None:
                found.append((seconds(item), lambda item=item: alone_in_fresh(item, alone)))
            else:
                groups.setdefault(group, []).append(item)
        for group, members in groups.items():
            parts = split(members, 1 if alone else slots, seconds)
            names = [f"{lane}-{k + 1}of{len(parts)}" for k in range(len(parts))]
            for part, name in zip(parts, names):
                found.append((sum(map(seconds, part)), lambda g=group, p=part, n=name: shared(g, p, alone, n)))
        return sorted(found, key=lambda task: -task[0])

    def in_pool(todo: list[tuple[float, Callable[[], None]]], slots: int) -> None:
        with ThreadPoolExecutor(max_workers=slots) as pool:
            for future in [pool.submit(task) for _, task in todo]:
                future.result()

    try:
        timing = [i for i in items if is_timing(texts[i.name])]
        others = [i for i in items if i not in timing]
        if platform.exclusive:
            side = [i for i in others if lane(texts[i.name]) == "side"]
            with ThreadPoolExecutor(max_workers=1) as beside:
                running = beside.submit(in_pool, tasks(side, workers, False, "side"), workers)
                in_pool(tasks([i for i in others if i not in side], 1, False, "device"), 1)
                running.result()
        else:
            in_pool(tasks(others, workers, False, "all"), workers)
        in_pool(tasks(timing, 1, True, "timing"), 1)
    finally:
        if temporary is not None:
            temporary.cleanup()
    return results
