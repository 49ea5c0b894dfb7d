"""Two executions of the same page give the same outputs, byte for byte, apart from the outputs of
snippets that declare they print timings (the comment line ``TIMINGS`` in the snippet): in those,
the digits may differ and nothing else.

Outputs are compared as the page shows them: the pieces of a stream joined (the kernel cuts stdout
into pieces at moments that vary from run to run; ``nb_merge_streams`` joins them on the page and
``kb.outputs.merge_streams`` in the downloaded notebook). Stream order cannot vary: a snippet
that writes to stderr fails the build (``kb.failures``), so stdout is the only stream."""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

import pytest

from tools.site import BUILD, DOCS, ROOT, SNIPPETS

from kb.cells import check_page  # noqa: E402 (tools.site makes docs/_ext importable)
from kb.common import PROBE_TAG  # noqa: E402
from kb.execution import use_page_kernel  # noqa: E402
from kb.outputs import merge_streams, name_snippet  # noqa: E402

TIMINGS = "# The timings this program prints differ from run to run and from machine to machine."
# The page with the most kinds of output: timings, a traceback quoting the snippet, stdout only.
PAGE = "core/jit"


def timing_snippet(path: Path) -> bool:
    return any(line.strip() == TIMINGS for line in path.read_text(encoding="utf-8").splitlines())


def comparable(outputs: list[dict], snippet: Path) -> list[str]:
    """A cell's outputs as text, the kernel's file named as the snippet, timing digits masked."""
    texts = []
    for output in merge_streams(outputs):
        if output["output_type"] == "stream":
            texts.append(f"{output['name']}: " + "".join(output["text"]))
        elif output["output_type"] == "error":
            texts.append("error: " + "\n".join(output["traceback"]))
        else:
            texts.append("data: " + json.dumps(output.get("data", {}), sort_keys=True))
    texts = [name_snippet(t, os.path.relpath(snippet, ROOT)) for t in texts]
    # Timings: digits masked, and runs of spaces folded (a wider number shifts the padding).
    return [re.sub(r" +", " ", re.sub(r"\d+", "#", t)) for t in texts] if timing_snippet(snippet) else texts


def execute(notebook: dict) -> dict:
    import nbformat
    from nbclient import NotebookClient

    node = nbformat.reads(json.dumps(notebook), as_version=4)
    for cell in node.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    with tempfile.TemporaryDirectory() as cwd:
        NotebookClient(node, timeout=300, kernel_name="python3", allow_errors=True,
                       resources={"metadata": {"path": cwd}}).execute()
    return node


def test_timing_snippets_are_marked():
    """Every snippet that reads a clock declares it prints timings (else it would fail the check)."""
    clocks = re.compile(r"\b(perf_counter|time\.time|timeit)\b")  # measuring clocks (a deadline is not a timing)
    unmarked = [p.relative_to(ROOT).as_posix() for p in sorted(SNIPPETS.rglob("*.py"))
                if clocks.search(p.read_text(encoding="utf-8")) and not timing_snippet(p)]
    assert not unmarked, f"snippets that time something without a '{TIMINGS}' line: {unmarked}"


def test_two_executions_of_a_page_give_the_same_outputs(site):
    """The page's outputs from the site build (read from the execution cache) against a fresh
    execution in the same kernel: tracebacks name the snippet, streams come in one order, and
    only the digits of declared timings may change."""
    from kb.downloads import with_cached_outputs

    built = site / "jupyter_execute" / f"{PAGE}.ipynb"  # MyST-NB writes it beside the language builds
    cached = with_cached_outputs(built, str(BUILD / ".jupyter_cache"))
    use_page_kernel()
    fresh = execute(cached)
    source = DOCS / f"{PAGE}.md"
    _, snippets = check_page(source.read_text(encoding="utf-8"), source, SNIPPETS)

    def cells(notebook):
        return [c for c in notebook["cells"]
                if c["cell_type"] == "code" and PROBE_TAG not in c.get("metadata", {}).get("tags", [])]

    first, second = cells(cached), cells(fresh)
    assert len(first) == len(second) == len(snippets)
    assert all(c.get("outputs") for c in first), "the build's outputs are missing from the cache"
    differ = [f"{snippet.relative_to(ROOT)}:\n  built: {comparable(a['outputs'], snippet)}\n  again: {comparable(b['outputs'], snippet)}"
              for a, b, snippet in zip(first, second, snippets)
              if comparable(a["outputs"], snippet) != comparable(b["outputs"], snippet)]
    assert not differ, "\n".join(differ)


def test_comparison_masks_only_declared_timings(tmp_path):
    timed, plain = tmp_path / "timed.py", tmp_path / "plain.py"
    timed.write_text(f'"""Times."""\n{TIMINGS}\nprint(1)\n', encoding="utf-8")
    plain.write_text('"""No timings."""\nprint(1)\n', encoding="utf-8")
    run = lambda text: [{"output_type": "stream", "name": "stdout", "text": t} for t in text]  # noqa: E731
    assert comparable(run(["took 1.25 ms\n"]), timed) == comparable(run(["took ", "3.50 ms\n"]), timed)
    assert comparable(run(["took 1.25 ms\n"]), plain) != comparable(run(["took 3.50 ms\n"]), plain)
    assert comparable(run(["took 1 ms\n"]), timed) != comparable(run(["took 1 s\n"]), timed)
    error = [{"output_type": "error", "traceback": ["at /tmp/ipykernel_1/2.py:3"]}]
    assert comparable(error, plain) == [f"error: at {os.path.relpath(plain, ROOT)}:3"]  # the snippet, named
