"""Run the site's notebooks as a reader runs them: each top to bottom in one Jupyter kernel (nbclient).

    python -m tools.notebooks [PAGE ...] [--site DIR] [--language en] [--out DIR] [--timeout S]

``nox -s notebooks`` builds the site, then runs every page's notebook (``_build/html/<language>/
_kb/notebooks/<page>.ipynb``, written by ``kb.downloads`` and ``kb.notebooks.prepare``) on the CPU:

1. **One kernel per notebook**, started with the environment a snippet runs in
   (``kb.run.process.reader_environment``: none of the build's ``JAX_*``/``XLA_*`` settings) in an
   empty working folder, running every cell in order, the Colab install cell included (it does
   nothing outside Colab). At a cell whose metadata holds ``kb.restart`` the kernel is replaced by
   a fresh one, as the note before that cell tells the reader to do; nowhere else.
2. **Every cell must run without an error and write nothing to stderr** (a program on the site
   writes nothing there either). A failure names the notebook, the cell's number (counting every
   cell, from 1, as Jupyter and Colab show them) and the snippet it holds, with the end of its
   traceback.
3. **The outputs the page shows.** What each program printed (its stdout, and the text of what it
   displayed other than a figure: in a kernel, rich's tables are displayed, not printed), without
   terminal colours (JAX colours its jaxprs in a kernel), is compared with the outputs the
   notebook carries (the build's records, so the page's own outputs). Before each program the
   runner has IPython name its code after its snippet, as the build does (``NAME_NEXT``), so that
   file names in what it prints (tracebacks, a jaxpr's source lines, the size of a serialized
   module that records them) are the page's; a reader's kernel shows its own cell names there. A
   difference is a failure: the program prints something else when earlier cells ran in its
   kernel. On an accelerator (``tools/machine/report.py --notebooks``) a program is compared with
   what it printed alone on that machine in the same pass, where the pass ran it (``alone``).
   Not compared: figures (PNG in a kernel, SVG on the page); the outputs of a program that says
   they depend on its process (``# Runs in a fresh process: <reason>``: a memory high-water
   mark, say), which must only run; and of a timing program (``kb.run.snippet.TIMINGS``), only the
   number of lines (which of two steps is faster may change from run to run). The few programs
   whose figures depend on the stack they run under or on what else the process holds
   (``KERNEL_FIGURES``, each with its reason) are compared with their digits masked.
   ``ENVIRONMENT_NOISE`` is what this environment adds on stderr and a reader's does not.
4. **A report**: ``<out>/report.json`` and ``report.md`` (default ``_build/notebooks/``): each
   notebook's seconds, cells, restarts and problems. Exit status 1 if any notebook failed.

Pages are named as ``core/jit`` (or ``docs/core/jit.md``); without any, every notebook runs.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import socket
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from tools.site import BUILD, HTML, SOURCE_LANGUAGE

from kb.run.process import reader_environment  # noqa: E402 (tools.site makes docs/_ext importable)
from kb.run.snippet import fresh, is_timing, masked_figures  # noqa: E402

NOTEBOOKS = "_kb/notebooks"
DIFFERS = "prints something else"
PAGE, ALONE = "the page shows", "the program alone printed"  # whose outputs a cell's are compared with


@dataclass
class Result:
    notebook: str
    seconds: float = 0.0
    cells: int = 0
    restarts: int = 0
    problems: list[str] = field(default_factory=list)
    differs: list[str] = field(default_factory=list)  # the programs (of problems) that ran and printed something else


def _text(source) -> str:
    return "".join(source) if isinstance(source, list) else source


def stream(outputs: list, name: str = "stdout") -> str:
    """The text a cell wrote to one stream (its outputs in order)."""
    return "".join(_text(o.get("text", "")) for o in outputs if o.get("output_type") == "stream" and o.get("name") == name)


def printed(outputs: list) -> str:
    """What a cell printed, as text: its stdout, and the text of what it displayed other than a
    figure (in a kernel, rich's tables, ``jax.debug.visualize_array_sharding``, are displayed, not
    printed), in order, without terminal colours (JAX colours its jaxprs in a kernel).

    >>> printed([{"output_type": "stream", "name": "stdout", "text": "\\x1b[34;1mlambda\\x1b[39;22m x\\n"},
    ...          {"output_type": "display_data", "data": {"text/plain": "table\\n", "text/html": "<pre>"}},
    ...          {"output_type": "display_data", "data": {"text/plain": "<Figure>", "image/png": "..."}}])
    'lambda x\\ntable\\n'
    """
    parts = []
    for output in outputs:
        if output.get("output_type") == "stream" and output.get("name") == "stdout":
            parts.append(_text(output.get("text", "")))
        elif output.get("output_type") in ("display_data", "execute_result"):
            data = output.get("data", {})
            if "text/plain" in data and not any(kind.startswith("image/") for kind in data):
                text = _text(data["text/plain"])
                parts.append(text if text.endswith("\n") else text + "\n")
    return ANSI.sub("", "".join(parts))


KERNEL_FILE = re.compile(r"/\S*?ipykernel_\d+/\d+\.py")  # where IPython compiles a cell
ANSI = re.compile(r"\x1b\[[0-9;]*m|\\x1b\[[0-9;]*m")  # a colour, or its repr inside a printed list
# Programs whose figures depend on the Python stack they run under or on what else the process
# holds, so that in a kernel they print other numbers than the page (the same words): only their
# digits are masked. JAX records the caller's whole stack in each operation's location, and in a
# kernel that stack holds IPython's frames.
KERNEL_FIGURES = {
    "snippets/advanced/exp_fresh_process.py": "a serialized module's size: it records the caller's stack",
    "snippets/advanced/exp_platforms.py": "a serialized module's size: it records the caller's stack",
    "snippets/advanced/exp_weights.py": "a serialized module's size: it records the caller's stack",
    "snippets/advanced/ffig_export.py": "a serialized module's size: it records the caller's stack",
    "snippets/xla/hlo_stages.py": "HLO's stack_frame_id: it numbers the frames of the caller's stack",
    "snippets/xla/hlo_jax_dump.py": "how many source locations the module records: the caller's stack",
    "snippets/flax/nnxt_overhead_calls.py": "Python calls per step: IPython's own calls count too",
    "snippets/performance/meas_memory_profile.py": "the process's live arrays: an earlier cell's are still alive",
}
# Lines on stderr that come from this runner's environment, not from the program: tqdm's notebook
# bar needs ipywidgets, which a reader's Jupyter or Colab has and .nox/kb does not.
ENVIRONMENT_NOISE = re.compile(r"TqdmWarning: IProgress not found|^\s*from \.autonotebook import tqdm as notebook_tqdm")
# Run in the kernel before each program: IPython names the next cell's code after its snippet, as
# the build names each program (kb.run.child), so file names in what it prints (a traceback, a
# jaxpr's source line, the size of a serialized module that records them) are the page's.
NAME_NEXT = """\
def _kb_name_next(name):
    compiler = get_ipython().compile
    if not hasattr(compiler, "_kb_get_code_name"):
        compiler._kb_get_code_name = compiler.get_code_name
        def get_code_name(raw_code, transformed_code, number):
            chosen, compiler._kb_next = getattr(compiler, "_kb_next", None), None
            return chosen or compiler._kb_get_code_name(raw_code, transformed_code, number)
        compiler.get_code_name = get_code_name
    compiler._kb_next = name
_kb_name_next({name!r}); del _kb_name_next
"""


def comparable(text: str, timing: bool, snippet: str = "", moved: int = 0) -> str:
    """Text as compared: the kernel's file name of a cell as the snippet's (its line numbers less
    the ``moved`` lines the notebook added above the program), no spaces at the ends of lines nor
    blank lines at the end (the page keeps none), and a timing program's digits masked and runs of spaces folded.

    >>> comparable('at /tmp/ipykernel_7/123.py:7 ', False, "snippets/a.py", 1)
    'at snippets/a.py:6\\n'
    >>> comparable('File "snippets/a.py", line 9, in <module>; a.py:9', False, "snippets/a.py", 1)
    'File "snippets/a.py", line 8, in <module>; a.py:8\\n'
    >>> comparable("first call:   31.5 ms\\n", True)
    'first call: #.# ms\\n'
    """
    if snippet:
        text = KERNEL_FILE.sub(snippet, text)
        if moved:
            name = re.escape(Path(snippet).name)
            text = re.sub(rf'((?:\S*/)?{name})(:|", line )(\d+)', lambda m: f"{m[1]}{m[2]}{int(m[3]) - moved}", text)
    text = "".join(line.rstrip() + "\n" for line in text.rstrip().splitlines())
    return masked_figures(text) if timing else text


def first_difference(expected: str, got: str, shown: str = PAGE) -> str:
    """The first line where two outputs differ (``shown``: whose the expected output is).

    >>> first_difference("a\\nb\\n", "a\\nc\\nd\\n")
    "line 2: the page shows 'b', the kernel printed 'c' (the page shows 2 lines, the kernel printed 3)"
    """
    a, b = expected.splitlines(), got.splitlines()
    for number, (x, y) in enumerate(itertools.zip_longest(a, b), 1):
        if x != y:
            return (f"line {number}: {shown} {x!r}, the kernel printed {y!r}"
                    + (f" ({shown} {len(a)} lines, the kernel printed {len(b)})" if len(a) != len(b) else ""))
    return "the same lines"


def _where(index: int, cell) -> str:
    load = cell.get("metadata", {}).get("load")
    return f"cell {index + 1}" + (f" ({load})" if load else "")


def transport() -> str:
    """How the runner talks to its kernels: Jupyter's default, TCP on the loopback, where this
    machine allows a network socket; else Unix sockets (``ipc``): the lent TPU VM refuses every
    network socket, ``socket.socket()`` itself (reports/machines/README.md)."""
    try:
        socket.socket(socket.AF_INET, socket.SOCK_STREAM).close()
    except OSError:
        return "ipc"
    return "tcp"


def kernel_transport(via: str, work: Path) -> dict[str, str]:
    """The kernel manager's settings for ``via``: Unix sockets in the notebook's working folder, named
    by an absolute path (Jupyter's default is relative, which the kernel, in another folder, misreads)."""
    return {"transport": via, "ip": str(work / "kernel")} if via == "ipc" else {"transport": via}


def run_notebook(path: Path, name: str | None = None, timeout: float = 600, alone: dict[str, str] | None = None,
                 via: str | None = None) -> Result:
    """Run one notebook as a reader does (module docstring); its problems, not an exception.
    ``alone``: what programs printed when they ran alone on this machine (the machine pass's rows,
    ``tools/machine/report.py``), compared in place of the page's outputs for those programs.
    ``via``: the kernels' transport (default ``transport()``)."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError
    from traitlets.config import Config

    name, alone = name or path.stem, alone or {}
    nb = nbformat.read(path, as_version=4)
    expected = [(c.get("outputs", []) if c.cell_type == "code" else None) for c in nb.cells]
    for index, cell in enumerate(nb.cells):
        if cell.metadata.get("load") in alone:
            expected[index] = [{"output_type": "stream", "name": "stdout", "text": alone[cell.metadata["load"]]}]
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    result = Result(name, cells=sum(c.cell_type == "code" for c in nb.cells))
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="kb-notebook-") as work:
        client = NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=False,
                                resources={"metadata": {"path": work}},
                                config=Config({"KernelManager": kernel_transport(via or transport(), Path(work))}))
        segments: list[list[int]] = [[]]
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            if cell.metadata.get("kb", {}).get("restart") and segments[-1]:
                segments.append([])
            segments[-1].append(index)
        result.restarts = len(segments) - 1
        stopped = False
        for segment in segments:
            if stopped:
                break
            # The kernel's own log (its start, a crash) in a file: a reader's Jupyter keeps it too.
            with open(Path(work) / "kernel.log", "ab") as log, \
                    client.setup_kernel(env=reader_environment(), cwd=work, stdout=log, stderr=log):
                for index in segment:
                    cell = nb.cells[index]
                    try:
                        if cell.metadata.get("load"):
                            client.wait_for_reply(client.kc.execute(NAME_NEXT.format(name=cell.metadata["load"]),
                                                                    silent=True, store_history=False))
                        client.execute_cell(cell, index)
                    except CellTimeoutError:
                        result.problems.append(f"{name}, {_where(index, cell)}: no result after {timeout:.0f} s")
                        stopped = True
                        break
                    except DeadKernelError:
                        log_tail = (Path(work) / "kernel.log").read_text(errors="replace").strip().splitlines()[-6:]
                        result.problems.append(f"{name}, {_where(index, cell)}: the kernel died:\n" + "\n".join(log_tail))
                        stopped = True
                        break
                    except CellExecutionError as error:
                        tail = "\n".join(str(error).strip().splitlines()[-6:])
                        result.problems.append(f"{name}, {_where(index, cell)} failed:\n{tail}")
                        stopped = True  # later cells may depend on it, as in a reader's kernel
                        break
                    problem = check_cell(cell, expected[index], ALONE if cell.metadata.get("load") in alone else PAGE)
                    if problem:
                        result.problems.append(f"{name}, {_where(index, cell)}: {problem}")
                        if problem.startswith(DIFFERS):
                            result.differs.append(cell.metadata["load"])
    result.seconds = round(time.perf_counter() - start, 1)
    return result


def check_cell(cell, expected: list | None, shown: str = PAGE) -> str | None:
    """What is wrong with an executed cell's outputs against the page's (``shown`` names whose they are; None: nothing)."""
    errors = [line for line in ANSI.sub("", stream(cell.outputs, "stderr")).splitlines()
              if line.strip() and not ENVIRONMENT_NOISE.search(line)]
    if errors:
        return "wrote to stderr:\n" + "\n".join(errors[-6:])
    if not cell.metadata.get("load"):
        return None  # a cell the notebook added (the install cell) shows nothing on the page
    source, snippet = _text(cell.source), cell.metadata["load"]
    if fresh(source):
        return None  # it says its output depends on its process (a kernel is another process)
    timing, moved = is_timing(source), cell.metadata.get("kb", {}).get("lines", 0)
    masked = timing or snippet in KERNEL_FIGURES
    want, got = comparable(printed(expected or []), masked), comparable(printed(cell.outputs), masked, snippet, moved)
    if timing:  # measurements: which of two is faster may change from run to run; the lines may not
        want, got = f"{len(want.splitlines())} lines\n", f"{len(got.splitlines())} lines\n"
    return None if want == got else f"{DIFFERS} than {shown}: " + first_difference(want, got, shown)


def notebooks(site: Path, language: str, pages: list[str]) -> list[tuple[str, Path]]:
    root = site / language / NOTEBOOKS
    if not pages:
        return [(p.relative_to(root).with_suffix("").as_posix(), p) for p in sorted(root.rglob("*.ipynb"))]
    found = []
    for page in pages:
        page = re.sub(r"^docs/|\.md$|\.ipynb$", "", page)
        path = root / f"{page}.ipynb"
        if not path.is_file():
            raise SystemExit(f"{page}: no notebook at {path} (a page without code has none; build the site first)")
        found.append((page, path))
    return found


def report(results: list[Result], out: Path, language: str) -> str:
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.json").write_text(json.dumps([r.__dict__ for r in results], indent=1, ensure_ascii=False) + "\n",
                                     encoding="utf-8")
    failed = [r for r in results if r.problems]
    lines = [f"# Notebooks ({language}): {len(results) - len(failed)} of {len(results)} ran as the pages show",
             "", f"{sum(r.seconds for r in results):.0f} s in all, one kernel at a time on the CPU.", "",
             "| notebook | code cells | restarts | seconds | result |", "|---|---:|---:|---:|---|"]
    lines += [f"| {r.notebook} | {r.cells} | {r.restarts} | {r.seconds:.1f} | {'failed' if r.problems else 'ok'} |"
              for r in results]
    for r in failed:
        lines += ["", f"## {r.notebook}", "", *(f"- {p}" for p in r.problems)]
    text = "\n".join(lines) + "\n"
    (out / "report.md").write_text(text, encoding="utf-8")
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="*", help="core/jit or docs/core/jit.md (default: every notebook)")
    parser.add_argument("--site", type=Path, default=HTML, help="the built site (default: _build/html)")
    parser.add_argument("--language", default=SOURCE_LANGUAGE)
    parser.add_argument("--out", type=Path, default=BUILD / "notebooks")
    parser.add_argument("--timeout", type=float, default=600, help="seconds one cell may run")
    args = parser.parse_args(argv)
    results = []
    for page, path in notebooks(args.site, args.language, args.pages):
        result = run_notebook(path, page, args.timeout)
        print(f"{page}: {'FAILED' if result.problems else 'ok'} ({result.cells} cells, "
              f"{result.restarts} restarts, {result.seconds:.1f} s)", flush=True)
        for problem in result.problems:
            print("  " + problem.replace("\n", "\n    "), flush=True)
        results.append(result)
    text = report(results, args.out, args.language)
    print(text.splitlines()[0])
    print(f"Report: {args.out / 'report.md'}")
    return 1 if any(r.problems for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
