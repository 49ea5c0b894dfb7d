"""Measure the site build (nox -s bench, or python -m tools.bench_build): a benchmark, not a test;
it prints a Markdown table and writes it into BENCHMARKS.md, between the ``bench_build`` markers
(``tools.benchmarks``; the rest of the file is left as it is).

Works on a copy of docs/, snippets/ and requirements.txt in a temporary folder, with its own records folder, so the
repository and its _build/ are left alone. sphinx-build runs as `nox -s docs` runs it (snippets in
one pool over all cores, timing snippets alone after it; pages read with -j auto). Steps, each
timed as wall time of sphinx-build:

1. cold build, English (runs every snippet) then Chinese (must run none);
2. the run phase of the cold English build against its ideal: the seconds of the snippets that
   ran in the pool divided by the cores, plus the seconds of the timing snippets that ran alone
   (target: <= 1.15x of the pool's part);
3. warm rebuild of both with no change (target: <= 10 % of the cold build);
4. rebuild after editing one snippet (must run exactly that snippet; target <= 20 s plus its run);
5. how two shards would split the cold build's snippet seconds (``kb.run.runner.shard`` on the
   records' seconds; the tests run real shards on the fixture project).
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .benchmarks import header, write_block
from .site import LANGUAGES, ROOT, SOURCE_LANGUAGE, TRANSLATIONS, source_pages, sphinx_command


def table(rows: list[tuple[str, str, str]]) -> str:
    """The result as a Markdown table, one row per step.

    >>> print(table([("cold build", "1.0 s", "2 snippets run")]))
    | step | wall time | note |
    |---|---|---|
    | cold build | 1.0 s | 2 snippets run |
    """
    return "\n".join(["| step | wall time | note |", "|---|---|---|"] + ["| " + " | ".join(row) + " |" for row in rows])


def build(work: Path, language: str) -> tuple[float, dict]:
    args = sphinx_command(work / "docs", work / "html" / language, doctrees=work / "doctrees" / language,
                          language=language, cache=work / "records", parallel=True)
    start = time.perf_counter()
    result = subprocess.run(args, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if result.returncode:
        sys.exit(f"build failed ({language}):\n{result.stdout}\n{result.stderr}")
    report = json.loads((work / "html" / language / "_kb_build.json").read_text(encoding="utf-8"))
    return seconds, report


def both(work: Path) -> dict[str, tuple[float, dict]]:
    return {language: build(work, language) for language in LANGUAGES}


def main() -> None:
    from kb.run.runner import Job, shard

    with tempfile.TemporaryDirectory(prefix="kb-bench-") as tmp:
        work = Path(tmp)
        shutil.copytree(ROOT / "docs", work / "docs", ignore=shutil.ignore_patterns("*.mo"))
        shutil.copytree(ROOT / "snippets", work / "snippets")
        shutil.copyfile(ROOT / "requirements.txt", work / "requirements.txt")  # kb.floors reads the pins

        cold = both(work)
        warm = both(work)

        # Edit one snippet (a comment changes its bytes, so its record's key no longer matches).
        snippet = work / "snippets" / "advanced" / "cb_debug_callback.py"
        snippet.write_text(snippet.read_text(encoding="utf-8") + "\n# edited by the benchmark\n", encoding="utf-8")
        edited = both(work)

    report = cold[SOURCE_LANGUAGE][1]
    ran = report["ran"]
    pool = sum(r["seconds"] for r in ran.values() if not r["alone"])
    alone = sum(r["seconds"] for r in ran.values() if r["alone"])
    cores = report["workers"]
    phase = report["run_phase_seconds"]
    ideal = pool / cores + alone
    cold_total = sum(s for s, _ in cold.values())
    warm_total = sum(s for s, _ in warm.values())
    edited_ran = edited[SOURCE_LANGUAGE][1]["ran"]
    edited_total = sum(s for s, _ in edited.values())
    own = sum(r["seconds"] for r in edited_ran.values())
    jobs = [Job(None, name, name) for name in ran]
    split = [sum(ran[j.name]["seconds"] for j in shard(jobs, k, 2, lambda j: ran[j.name]["seconds"])) for k in (1, 2)]
    rows = [
        ("cold build, English (runs every snippet)", f"{cold[SOURCE_LANGUAGE][0]:.1f} s", f"{len(ran)} snippets run"),
        ("of which the run phase", f"{phase:.1f} s",
         f"pool {pool:.1f} s of snippet time on {cores} cores, then {alone:.1f} s of timing snippets alone: "
         f"{phase / ideal:.2f}x of {ideal:.1f} s (target <= 1.15x)"),
        ("cold build, Chinese alone", f"{cold[TRANSLATIONS[0]][0]:.1f} s", f"{len(cold[TRANSLATIONS[0]][1]['ran'])} snippets run"),
        ("cold build, both languages", f"{cold_total:.1f} s", "target <= 720 s"),
        ("warm rebuild, no change, both", f"{warm_total:.1f} s", f"{100 * warm_total / cold_total:.0f} % of cold (target <= 10 %)"),
        (f"rebuild after editing {snippet.relative_to(work)}", f"{edited_total:.1f} s",
         f"ran: {', '.join(edited_ran) or 'nothing'} ({own:.1f} s); {edited_total - own:.1f} s besides (target <= 20 s); "
         f"Chinese: {len(edited[TRANSLATIONS[0]][1]['ran'])}"),
        ("two shards of the cold build's snippets", f"{split[0]:.1f} s / {split[1]:.1f} s",
         f"of {pool + alone:.1f} s of snippet time (kb.run.runner.shard on these records' seconds)"),
    ]
    print(f"Machine: {platform.system()} {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    result = table(rows)
    print(result)
    assert not cold[TRANSLATIONS[0]][1]["ran"], "the Chinese build ran snippets"
    assert list(edited_ran) == [snippet.relative_to(work).as_posix()], "editing one snippet must run exactly it"
    write_block("bench_build", f"{header('nox -s bench')} {len(source_pages())} pages, {len(ran)} snippets\n\n{result}")


if __name__ == "__main__":
    main()
