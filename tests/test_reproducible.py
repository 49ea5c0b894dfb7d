"""Two runs of the same snippets give the same outputs, byte for byte, apart from the outputs of
snippets that declare they print timings (the comment line ``TIMINGS`` in the snippet): in those,
the digits may differ and nothing else.

Nothing but the program itself decides what it prints, however it ran (most of them one after
another in a shared process, kb.run.schedule; the rest each in a fresh one); stdout is one stream (a
snippet that writes to stderr fails the build), and a figure's place in it is recorded. These tests
run one page's snippets again, and a daily sample of the programs that shared a process again in
fresh processes, and compare."""

from __future__ import annotations

import datetime
import json
import random
import re
from pathlib import Path

import pytest

from tools.site import ROOT, SNIPPETS, SOURCE_LANGUAGE

from kb.reader import notebook_outputs  # noqa: E402 (tools.site makes docs/_ext importable)
from kb.run.runner import job, run_one  # noqa: E402
from kb.run.snippet import TIMINGS, is_timing, masked_figures  # noqa: E402
from kb.run.store import read_record  # noqa: E402

# The page with the most kinds of output: timings, a traceback quoting the snippet, stdout only.
PAGE = "core/jit"


def timing_snippet(path: Path) -> bool:
    return is_timing(path.read_text(encoding="utf-8"))


def comparable(outputs: list[dict], snippet: Path) -> list[str]:
    """A cell's outputs as text, timing digits masked."""
    texts = []
    for output in outputs:
        if output["output_type"] == "stream":
            texts.append(f"{output['name']}: " + "".join(output["text"]))
        else:
            texts.append("data: " + json.dumps(output.get("data", {}), sort_keys=True))
    return [masked_figures(t) for t in texts] if timing_snippet(snippet) else texts


def test_timing_snippets_are_marked():
    """Every snippet that reads a clock declares it prints timings (else it would fail the check)."""
    clocks = re.compile(r"\b(perf_counter|time\.time|timeit)\b")  # measuring clocks (a deadline is not a timing)
    unmarked = [p.relative_to(ROOT).as_posix() for p in sorted(SNIPPETS.rglob("*.py"))
                if clocks.search(p.read_text(encoding="utf-8")) and not timing_snippet(p)]
    assert not unmarked, f"snippets that time something without a '{TIMINGS}' line: {unmarked}"


def page_snippets(page: str) -> list[str]:
    from kb.run.plan import check_page

    source = ROOT / "docs" / f"{page}.md"
    loaded = check_page(source.read_text(encoding="utf-8"), source, SNIPPETS)[1]
    return list(dict.fromkeys(p.relative_to(ROOT).as_posix() for p in loaded))


@pytest.mark.parametrize("name", page_snippets(PAGE))
def test_two_runs_of_a_page_give_the_same_outputs(site, name):
    """The record the site build made for each of one page's snippets against a second run:
    tracebacks name the snippet, and only the digits of declared timings may change."""
    report = json.loads((site / SOURCE_LANGUAGE / "_kb_build.json").read_text(encoding="utf-8"))
    assert name in report["pages"][PAGE]
    built = read_record(Path(report["records"][name]))
    assert built is not None and built["stdout"], f"{name}: the build's record is missing"
    again = run_one(job(ROOT / name, ROOT), timeout=300)
    first, second = comparable(notebook_outputs(built), ROOT / name), comparable(notebook_outputs(again), ROOT / name)
    assert first == second, f"{name}:\n  built: {first}\n  again: {second}"


def test_comparison_masks_only_declared_timings(tmp_path):
    timed, plain = tmp_path / "timed.py", tmp_path / "plain.py"
    timed.write_text(f'"""Times."""\n{TIMINGS}\nprint(1)\n', encoding="utf-8")
    plain.write_text('"""No timings."""\nprint(1)\n', encoding="utf-8")
    run = lambda text: [{"output_type": "stream", "name": "stdout", "text": text}]  # noqa: E731
    assert comparable(run("took 1.25 ms\n"), timed) == comparable(run("took 3.50 ms\n"), timed)
    assert comparable(run("took 1.25 ms\n"), plain) != comparable(run("took 3.50 ms\n"), plain)
    assert comparable(run("took 1 ms\n"), timed) != comparable(run("took 1 s\n"), timed)


@pytest.mark.parametrize("name", ["core/jit_if_tracer.py"])
def test_tracebacks_and_jax_errors_name_the_snippet(site, name):
    """The runner compiles each snippet under its own name: JAX's messages quote the file a
    reader can open, with its line (here, the function jit traced)."""
    report = json.loads((site / SOURCE_LANGUAGE / "_kb_build.json").read_text(encoding="utf-8"))
    record = read_record(Path(report["records"][f"snippets/{name}"]))
    assert re.search(rf"snippets/{re.escape(name)}:\d+", record["stdout"]), record["stdout"]
    assert "ipykernel_" not in record["stdout"] and "/tmp/" not in record["stdout"]


SAMPLE = 8  # programs per day: each runs again in a fresh process (about 2 s each on 2 cores)


def shared_sample(records: dict[str, str], day: datetime.date, size: int = SAMPLE) -> list[str]:
    """The programs the build ran in a shared process, a different sample each day (by its date)."""
    shared = sorted(name for name, path in records.items()
                    if (record := read_record(Path(path))) is not None and record["how"] == "batch")
    return sorted(random.Random(day.toordinal()).sample(shared, min(size, len(shared))))


def test_a_sample_of_the_programs_that_shared_a_process_prints_the_same_in_a_fresh_one(site):
    """Most programs of the build run one after another in shared processes (kb.run.schedule);
    what they print must be what a reader's `python snippet.py` prints. A rotating sample runs
    again alone, in a fresh process, and must print the same (a timing program's digits aside).
    A program that differs says so with `# Runs in a fresh process: <reason>` (kb.run.snippet.FRESH)."""
    report = json.loads((site / SOURCE_LANGUAGE / "_kb_build.json").read_text(encoding="utf-8"))
    sample = shared_sample(report["records"], datetime.date.today())
    assert len(sample) == SAMPLE, "the build ran fewer programs in shared processes than the sample needs"
    differ = []
    for name in sample:
        built = read_record(Path(report["records"][name]))
        alone = run_one(job(ROOT / name, ROOT), timeout=300)
        first, second = comparable(notebook_outputs(built), ROOT / name), comparable(notebook_outputs(alone), ROOT / name)
        if first != second:
            differ.append(f"{name}:\n  shared: {first}\n  fresh:  {second}")
    assert not differ, "\n".join(differ)
