"""Measure the site build (nox -s bench, or python -m tools.bench_build): a benchmark, not a test;
it prints a Markdown table.

Works on a copy of docs/ and snippets/ in a temporary folder, with its own cache, so the
repository and its _build/ are left alone. sphinx-build runs as `nox -s docs` runs it (-j auto:
pages execute in parallel on all cores). Steps, each timed as wall time of sphinx-build:

1. cold build, English (executes every page) then Chinese (must execute none);
2. warm rebuild of both with no change (target: <= 10 % of the cold build);
3. rebuild after editing one snippet (must re-execute exactly the one page that loads it);
4. the cold English build against the sum of its cells' own run times (target: <= 1.5x; with
   pages executing in parallel it can be below 1x).
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

from .site import LANGUAGES, ROOT, SOURCE_LANGUAGE, TRANSLATIONS, sphinx_command


def build(work: Path, language: str) -> tuple[float, dict]:
    args = sphinx_command(work / "docs", work / "html" / language, doctrees=work / "doctrees" / language,
                          language=language, cache=work / "cache", parallel=True)
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
    with tempfile.TemporaryDirectory(prefix="kb-bench-") as tmp:
        work = Path(tmp)
        shutil.copytree(ROOT / "docs", work / "docs", ignore=shutil.ignore_patterns("*.mo"))
        shutil.copytree(ROOT / "snippets", work / "snippets")

        cold = both(work)
        warm = both(work)

        # Edit one snippet (a comment changes its code, so its page's cache entry no longer matches).
        snippet = sorted((work / "snippets").rglob("*.py"))[0]
        snippet.write_text(snippet.read_text(encoding="utf-8") + "\n# edited by the benchmark\n", encoding="utf-8")
        edited = both(work)

    cold_total = sum(s for s, _ in cold.values())
    warm_total = sum(s for s, _ in warm.values())
    cell_total = sum(t or 0 for times in cold[SOURCE_LANGUAGE][1]["cell_seconds"].values() for t in times)
    pages = len(cold[SOURCE_LANGUAGE][1]["executed"])
    rows = [
        ("cold build, English (executes every page)", f"{cold[SOURCE_LANGUAGE][0]:.1f} s", f"{pages} pages executed"),
        ("cold build, Chinese alone", f"{cold[TRANSLATIONS[0]][0]:.1f} s", f"{len(cold[TRANSLATIONS[0]][1]['executed'])} pages executed"),
        ("cold build, both languages", f"{cold_total:.1f} s", ""),
        ("warm rebuild, no change, both", f"{warm_total:.1f} s", f"{100 * warm_total / cold_total:.0f} % of cold (target <= 10 %)"),
        (f"rebuild after editing {snippet.relative_to(work)}", f"{sum(s for s, _ in edited.values()):.1f} s",
         f"re-executed: {', '.join(edited[SOURCE_LANGUAGE][1]['executed']) or 'nothing'}; Chinese: {len(edited[TRANSLATIONS[0]][1]['executed'])}"),
        ("sum of the cells' own run times (English cold build)", f"{cell_total:.1f} s",
         f"build / cells = {cold[SOURCE_LANGUAGE][0] / cell_total:.2f}x (target <= 1.5x)" if cell_total else ""),
    ]
    print(f"Machine: {platform.system()} {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print("| step | wall time | note |\n|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    assert not cold[TRANSLATIONS[0]][1]["executed"], "the Chinese build executed pages"
    assert len(edited[SOURCE_LANGUAGE][1]["executed"]) == 1, "editing one snippet must re-execute exactly one page"


if __name__ == "__main__":
    main()
