"""Run the site's comparison programs on the CPU as an accelerator computes their products.

    python -m tools.precision_check [--mode bf16|tf32] [--only GLOB] [--list] [--jobs N]
                                    [--shard K/N] [--records DIR]

A program whose tolerance holds only at full float32 passes on the CPU, where the site is built
and CI runs, and fails on a reader's TPU (DEFAULT precision: one bfloat16 pass) or A100/H100
(TensorFloat-32). This check catches it without an accelerator: each selected snippet runs with
``kb.run.precision``'s emulation installed (``--mode bf16``, the default: a TPU; ``tf32``: a
GPU), which rounds the float32 operands of every DEFAULT-precision ``dot_general`` and
``conv_general_dilated`` and leaves products the program asked for at ``"highest"``/``"float32"``
(per call, ``jax.config.update`` or ``with jax.default_matmul_precision``) alone. That module's
docstring says what it does not emulate; a failure inside a block the program runs only on the
CPU (``jax.default_backend() == "cpu"``), or in numbers read from HLO text or
``cost_analysis()``, is the emulation's, not the accelerator's.

**How they run.** As the build runs them (``kb.run.schedule.run``): the pages' snippets
(``tools.shards.site_plan``), each in its own ``__main__``, in an empty working directory, the
build's environment without ``JAX_*``/``XLA_*``/``KB_*``, with deprecation and future warnings as
errors, in processes shared with other programs where the build shares them; as many at once as
the machine has cores (``--jobs``). Each job carries the mode (``kb.run.runner.job``'s
``precision``): the child script (``kb/run/child.py --precision MODE``), or the shared worker before
its first program, installs the emulation, and the mode is part of each record's key. A program
passes as a build counts it (``kb.run.store.problem``): exit status 0, nothing on stderr but the
platform messages ``kb.run.noise`` tables, something printed. Records go to a temporary folder
(or ``--records DIR``), never to the build's records folder, whose keys they share.

**Which programs** (``selected``, read from the source, nothing run):

1. it starts JAX: it imports ``jax`` or a library built on it (``kb.run.snippet.JAX_LIBRARIES``);
2. it does not pin the CPU by design (``kb.run.snippet.cpu_by_design``: its subject is the CPU);
3. it is not a timing program (``kb.run.snippet.is_timing``: its numbers are measurements);
4. it compares numbers with a tolerance: it calls a closeness test (``CLOSENESS``: ``allclose``,
   ``isclose``, ``assert_allclose``, ...; of any module), or it has an ``assert`` whose condition
   holds a ``<`` or ``<=`` comparison that names a tolerance-like word (``TOLERANCE_WORDS``: ``tol``,
   ``diff``, ``err``, ``gap``, ``rel``, ``dev``, ``delta``; in a name, an attribute or a string
   key, any case) or a float constant under 0.01 (``1e-5``).

Exact comparisons (``array_equal``, ``==``) are not a reason to run a program: a float32 product
is not bit-equal to another implementation's even on the CPU, so a program asserting equality
compares what the rounding does not reach (JAX against JAX, integers, shapes, text). ``--list``
prints the selection.

**What counts.** A program that fails fails the check (exit status 1), printed with its first
error line (and the snippet's line where the exception escaped), except where the failure is the
emulation's own (``verdict``): the failing line is in a block the program enters only on the CPU
(``cpu_guarded``: ``if jax.default_backend() == "cpu":``, or a name bound to that test), which
runs under the emulation because the backend is still ``cpu``; or it is one of the lines in
``ARTEFACTS``, each with its reason (it reads HLO text, ``cost_analysis()`` or
``memory_analysis()``, which the inserted operations change). Those are printed as
``artefact`` and not counted; the rest of such a program is not checked. A tolerance that a
program chooses by backend (``1e-6 if jax.default_backend() == "cpu" else 1e-5``) is the CPU's
here: a failure between the two is the emulation's too, and is counted.

**The committed check** (``MANIFEST``, ``docs/_data/precision-bf16.json``): a bf16 run of the
whole selection writes each program's sha256 and verdict there; a run of a part (``--only``,
``--shard``) updates its programs' entries and keeps the others.
``tests/test_precision_check.py`` holds the site to it in ``nox -s tests``, where CI has no
accelerator: every selected program is either in the manifest with its current bytes and a
verdict that is not "failed", or it runs there under the emulation and must not fail. So an edited
comparison program is checked in CI at once, and the whole selection (about five minutes) runs
only here, when an author refreshes the manifest with ``nox -s precision``.

**Cost.** 194 of the 517 snippets are selected (December 2026). One run of all of them took
610 CPU-seconds (bf16, and 620 for tf32), about 5 minutes on 2 free cores: the GPT section's 14
programs are a third of it. ``--shard K/N`` splits the selection into N balanced parts, one per
CI job (balanced by the seconds of an earlier check's records in ``--records DIR``; without
them, by count).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import datetime
import fnmatch
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import conf

from .shards import parse_shard, site_plan
from .site import DOCS, ROOT

from kb.run import precision  # noqa: E402
from kb.run.plan import snippet_digest  # noqa: E402
from kb.run.platforms import machine_description  # noqa: E402
from kb.run.runner import Job, earlier_seconds, job, shard  # noqa: E402
from kb.run.schedule import run  # noqa: E402
from kb.run.snippet import JAX_LIBRARIES, cpu_by_design, is_timing  # noqa: E402
from kb.run.store import problem, write_record  # noqa: E402

MANIFEST = DOCS / "_data" / "precision-bf16.json"
CLOSENESS = {"allclose", "isclose", "assert_allclose", "assert_array_almost_equal", "assert_almost_equal",
             "assert_array_almost_equal_nulp", "assert_array_max_ulp", "approx"}
TOLERANCE_WORDS = re.compile(r"tol|diff|err|gap|rel|dev|delta", re.IGNORECASE)
SMALL = 1e-2
MODES = tuple(precision.MANTISSA_BITS)
# Failures that are the emulation's, not an accelerator's, besides those in a CPU-only block
# (``cpu_guarded``): a line that reads what the inserted reduce_precision operations change (HLO
# text, cost_analysis(), memory_analysis()) and holds on every real backend. Keyed by the snippet
# and the failing line's text: when the line changes, its entry no longer applies.
ARTEFACTS = {
    ("snippets/xla/hlo_stages.py",
     'assert ops == ["stablehlo.dot_general", "stablehlo.broadcast_in_dim", "stablehlo.broadcast_in_dim",'):
        "the lowered StableHLO's list of operations holds the emulation's reduce_precision operations",
}

def _names(node: ast.AST) -> Iterator[str]:
    """Identifiers, attribute names and string constants under ``node``."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            yield sub.id
        elif isinstance(sub, ast.Attribute):
            yield sub.attr
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            yield sub.value


def _tolerance_assert(node: ast.Assert) -> bool:
    for sub in ast.walk(node.test):
        if not (isinstance(sub, ast.Compare) and any(isinstance(op, (ast.Lt, ast.LtE)) for op in sub.ops)):
            continue
        if any(TOLERANCE_WORDS.search(name) for name in _names(sub)):
            return True
        if any(isinstance(c, ast.Constant) and type(c.value) is float and 0 < c.value < SMALL for c in ast.walk(sub)):
            return True
    return False


def selected(source: str) -> str | None:
    """Why a program is checked (the rule it meets: a closeness call or a tolerance assert), or None.

    >>> selected("import jax.numpy as jnp\\nassert jnp.allclose(a, b, rtol=1e-6)\\n")
    'calls allclose'
    >>> selected("from flax import nnx\\nassert max(d_fwd, d_bwd) < tol\\n")
    'asserts a tolerance at line 2'
    >>> selected("import jax\\nassert float(jnp.abs(y - r).max()) <= 1e-5\\n")
    'asserts a tolerance at line 2'
    >>> selected("import numpy as np\\nassert np.allclose(a, b)\\n") is None  # starts no JAX
    True
    >>> selected("import jax\\nassert jnp.array_equal(a, b) and n < 3\\n") is None  # exact, and a count
    True
    >>> selected('import os\\nos.environ["JAX_PLATFORMS"] = "cpu"  # CPU by design: flags\\nimport jax\\n'
    ...          'assert diff < 1e-6\\n') is None
    True
    """
    if cpu_by_design(source) or is_timing(source):
        return None
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            imported.add(node.module.split(".")[0])
    if not imported & set(JAX_LIBRARIES):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            if name in CLOSENESS:
                return f"calls {name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert) and _tolerance_assert(node):
            return f"asserts a tolerance at line {node.lineno}"
    return None


def _reads_backend(node: ast.AST) -> bool:
    """``jax.default_backend()`` or a ``.platform`` (of a device) somewhere in ``node``."""
    for sub in ast.walk(node):
        called = getattr(sub.func, "attr", None) or getattr(sub.func, "id", None) if isinstance(sub, ast.Call) else None
        if called == "default_backend":
            return True
        if isinstance(sub, ast.Attribute) and sub.attr == "platform":
            return True
    return False


def _cpu_test(node: ast.AST, flags: set[str]) -> bool:
    """``<backend> == "cpu"``, a name bound to one (``on_cpu``), or an ``and`` holding either."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return any(_cpu_test(value, flags) for value in node.values)
    if isinstance(node, ast.Name):
        return node.id in flags
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq):
        sides = [node.left, *node.comparators]
        return (any(isinstance(side, ast.Constant) and side.value == "cpu" for side in sides)
                and any(_reads_backend(side) for side in sides))
    return False


def cpu_guarded(source: str, line: int) -> bool:
    """Whether ``line`` is in the body of an ``if`` the program enters only on the CPU backend.

    Under the emulation the backend is still ``cpu``, so such a block runs and checks a CPU
    fact about products the emulation changed: its failure is the emulation's.

    >>> program = ('import jax\\non_cpu = jax.default_backend() == "cpu"\\nif on_cpu:\\n    assert a == b\\n'
    ...            'if jax.default_backend() == "cpu" and big:\\n    assert c\\nassert d\\n')
    >>> [cpu_guarded(program, n) for n in (4, 6, 7)]
    [True, True, False]
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    flags = {target.id for node in ast.walk(tree) if isinstance(node, ast.Assign) and _cpu_test(node.value, set())
             for target in node.targets if isinstance(target, ast.Name)}
    return any(isinstance(node, ast.If) and _cpu_test(node.test, flags)
               and node.body[0].lineno <= line <= node.body[-1].end_lineno for node in ast.walk(tree))


def verdict(record: dict[str, Any], source: str) -> tuple[str, str | None]:
    """``("ok", None)``, ``("failed", first error)`` or ``("artefact", why the failure is the emulation's)``.

    >>> failed = {"snippet": "snippets/s/a.py", "returncode": 1, "timed_out": False, "stdout": "", "figures": [],
    ...           "stderr": "AssertionError\\n", "error_line": 3}
    >>> verdict(failed, 'import jax\\nif jax.default_backend() == "cpu":\\n    assert fast == exact\\n')[0]
    'artefact'
    >>> verdict(failed, 'import jax\\n\\nassert rel < 1e-6\\n')
    ('failed', 'line 3: AssertionError (exit status 1) | assert rel < 1e-6')
    """
    if problem(record) is None:
        return "ok", None
    line = record.get("error_line")
    if line is not None and not record["timed_out"]:
        text = source.splitlines()[line - 1].strip() if 0 < line <= len(source.splitlines()) else ""
        if cpu_guarded(source, line):
            return "artefact", f"line {line} runs on the CPU backend only (the emulation's backend is cpu)"
        why = ARTEFACTS.get((record["snippet"], text))
        if why is not None:
            return "artefact", f"line {line}: {why}"
    return "failed", first_error(record, source)


def selection(only: str | None = None, docs: Path = DOCS) -> list[Job]:
    """The pages' snippets this check runs (``selected``), those matching ``only`` (an fnmatch
    pattern of ``snippets/<section>/<name>.py``) if given."""
    return [item for name, item in sorted(site_plan(docs).jobs.items())
            if (only is None or fnmatch.fnmatch(name, only))
            and selected(item.path.read_text(encoding="utf-8")) is not None]


def first_error(record: dict[str, Any], source: str | None = None) -> str:
    """A failed run in one line: where the exception escaped (the snippet's line, quoted) and its
    message, or why the build would not count the run.

    >>> first_error({"returncode": 1, "timed_out": False, "stdout": "", "figures": [], "error_line": 2,
    ...              "stderr": "Traceback ...\\nAssertionError\\n"}, "x = 1\\nassert rel < 1e-6  # tight\\n")
    'line 2: AssertionError (exit status 1) | assert rel < 1e-6  # tight'
    """
    reason = problem(record) or "passed"
    line = record.get("error_line")
    if line is None:
        return reason
    quoted = ""
    if source is not None and 0 < line <= len(source.splitlines()):
        quoted = " | " + source.splitlines()[line - 1].strip()
    return f"line {line}: {reason}{quoted}"


def check(items: Iterable[Job], mode: str | None, *, timeout: float = conf.kb_snippet_timeout,
          workers: int | None = None, done: Callable[[dict[str, Any]], None] | None = None,
          records: Path | None = None) -> list[dict[str, Any]]:
    """Run ``items`` under ``mode``'s emulation (None: none) and return their records (by name).

    ``records``: the folder the records are written to (default: a temporary one, removed after),
    never the build's: a record there has the build's key and would stand for the program's real
    output. In a folder of an earlier check, the longest programs start first.
    """
    if records is not None and records.resolve() == Path(conf.kb_records).resolve():
        raise ValueError(f"{records} is the build's records folder: the check's records would replace the build's")
    if mode is not None and mode not in MODES:
        raise ValueError(f"mode {mode!r}: expected one of {', '.join(MODES)}")
    jobs = [job(item.path, item.path.parents[len(Path(item.name).parts) - 1], mode) for item in items]  # from its root
    with contextlib.ExitStack() as stack:
        folder = records or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="kb-precision-records-")))

        def finish(record: dict[str, Any]) -> None:
            write_record(folder, record)
            if done is not None:
                done(record)

        ran = run(jobs, timeout=timeout, workers=workers, done=finish,
                  cost={j.name: earlier_seconds(folder, j.name) or 1.0 for j in jobs})
    return sorted(ran.values(), key=lambda r: r["snippet"])


def write_manifest(verdicts: dict[str, tuple[str, str | None]], mode: str, path: Path = MANIFEST, *,
                   whole: bool = True) -> None:
    """Keep each program's sha256 and verdict (``verdict``'s, by snippet name) in ``MANIFEST``: from a
    run of the whole selection (``whole``: the programs it did not run leave the manifest), or
    merged into it from a part (``--only``, ``--shard``: the other entries stay)."""
    from importlib.metadata import version

    programs = {} if whole or not path.exists() else json.loads(path.read_text(encoding="utf-8"))["programs"]
    for name, (kind, why) in verdicts.items():
        programs[name] = {"sha256": snippet_digest(ROOT / name), "verdict": kind, **({"why": why} if why else {})}
    path.write_text(json.dumps({"mode": mode, "date": datetime.date.today().isoformat(),
                                "machine": machine_description(),
                                "jax": version("jax"), "programs": dict(sorted(programs.items()))}, indent=1,
                               ensure_ascii=False) + "\n",
                    encoding="utf-8")


def stale(items: Iterable[Job], path: Path = MANIFEST) -> tuple[list[Job], dict[str, str]]:
    """(the programs the committed check does not cover as they are now, the covered ones that
    failed there by name: its reason)."""
    manifest = json.loads(path.read_text(encoding="utf-8"))["programs"] if path.exists() else {}
    todo, failed = [], {}
    for item in items:
        entry = manifest.get(item.name)
        if entry is None or entry["sha256"] != snippet_digest(item.path):
            todo.append(item)
        elif entry["verdict"] == "failed":
            failed[item.name] = entry.get("why") or "failed"
    return todo, failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.precision_check", description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=MODES, default="bf16",
                        help="bf16: a TPU's default precision (default); tf32: an A100/H100's")
    parser.add_argument("--only", metavar="GLOB", help="only the selected snippets matching GLOB "
                        "(fnmatch on snippets/<section>/<name>.py, e.g. 'snippets/optax/*' or '*_agree*')")
    parser.add_argument("--list", action="store_true", help="print the selected snippets and why, run nothing")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="programs at once (default: the cores)")
    parser.add_argument("--shard", type=parse_shard, metavar="K/N",
                        help="only shard K of N of the selection (balanced by the seconds of the records in --records)")
    parser.add_argument("--records", type=Path, metavar="DIR",
                        help="keep the records in DIR (default: a temporary folder); the next check run with the "
                             "same DIR starts the longest programs first and balances --shard by their seconds")
    args = parser.parse_args(argv)
    items = selection(args.only)
    if args.shard:
        k, n = args.shard
        items = shard(items, k, n, lambda item: earlier_seconds(args.records, item.name) if args.records else None)
    paths = {item.name: item.path for item in items}

    def source(name: str) -> str:  # read when its run ends: the line numbers of the program that ran
        return paths[name].read_text(encoding="utf-8")

    if args.list:
        for item in items:
            print(f"{item.name}: {selected(source(item.name))}")
        print(f"{len(items)} selected")
        return 0
    if not items:
        print(f"no selected snippet matches {args.only!r}", file=sys.stderr)
        return 1
    print(f"precision check ({args.mode}): {len(items)} snippets, {args.jobs} at a time", flush=True)

    def report(record: dict[str, Any]) -> None:
        kind, why = verdict(record, source(record["snippet"]))
        status = {"ok": "ok      ", "failed": "FAILED  ", "artefact": "artefact"}[kind]
        print(f"{status} {record['snippet']} ({record['seconds']:.1f} s)" + (f": {why}" if why else ""), flush=True)

    start = time.perf_counter()
    if args.records:
        args.records.mkdir(parents=True, exist_ok=True)
    records = check(items, args.mode, workers=args.jobs, done=report, records=args.records)
    seconds = time.perf_counter() - start
    verdicts = {r["snippet"]: verdict(r, source(r["snippet"])) for r in records}
    failed = sorted(name for name, (kind, _) in verdicts.items() if kind == "failed")
    artefacts = sorted(name for name, (kind, _) in verdicts.items() if kind == "artefact")
    if args.mode == "bf16":
        whole = not args.only and not args.shard
        write_manifest(verdicts, args.mode, whole=whole)
        print(f"the committed check: {MANIFEST.relative_to(ROOT)} ({'written' if whole else 'updated'}: "
              f"{len(records)} programs)")
    print(f"\nprecision check ({args.mode}): {len(records)} snippets in {seconds:.0f} s, {len(failed)} failed, "
          f"{len(artefacts)} stopped by the emulation's own artefacts (not counted)")
    for title, names in (("failed", failed), ("artefacts (the rest of these programs was not checked)", artefacts)):
        if names:
            print(f"{title}:")
            for name in names:
                print(f"  {name}: {verdicts[name][1]}")
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main())
