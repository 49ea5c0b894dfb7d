"""kb_pipeline: the rules that make every page of the site an executed, checked program.

What it adds to Sphinx + MyST-NB:

1. Every code cell of a page loads its code from a snippet (``:load:`` of a file under the
   snippets directory). A cell with inline code, or one that loads a file from elsewhere,
   fails the build with the page and the line named.
2. A page depends on its snippet files: editing one snippet re-reads, and so re-executes,
   only the pages that load it.
3. A failed cell, a cell killed at the timeout or a failed ``assert`` fails the build with
   the page, the snippet file and the line named (MyST-NB alone names only the page).
4. A hidden probe cell at the end of each executed page records what the page ran with
   (package versions, backend and devices, machine); the page shows it once, near the top.
   Per-cell run times are recorded too (for the build benchmark).
5. Consecutive code cells that carry ``:tab: <label>`` become one synced sphinx-design tab set
   (MyST-NB does not execute cells nested inside directives, so cells stay top level).
6. With ``kb_execute = False`` (the Chinese build) a page missing from the shared execution
   cache fails the build instead of being executed again.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any, Iterable

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

PROBE_FILE = Path(__file__).with_name("kb_probe.py")
PROBE_TAG = "kb-provenance"
PROBE_MARKER = "KB-PROVENANCE "
ANSI_RE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
FRONT_MATTER_RE = re.compile(r"\A---\n.*?\n---\n", re.S)
CODE_CELL_RE = re.compile(r"^(`{3,}|~{3,})\{code-cell\}")

# The provenance box, in each language the site is built in (it is made after translation).
PROVENANCE_TEXT = {
    "en": {
        "label": "Executed at build time",
        "body": " with Python {python}, {packages}, on {devices}{took}; built {date}.",
        "took": "; the cells took {seconds:.1f} s",
        "cpu": "CPU ×{count} ({emulated}{machine}, {cores} cores)",
        "emulated": "emulated; ",
        "accelerator": "{kind} ×{count} ({machine}, {cores} cores)",
    },
    "zh_CN": {
        "label": "本页在构建时执行",
        "body": "：Python {python}，{packages}；设备：{devices}{took}；构建日期 {date}。",
        "took": "；各单元格共用时 {seconds:.1f} 秒",
        "cpu": "CPU ×{count}（{emulated}{machine}，{cores} 核）",
        "emulated": "模拟设备；",
        "accelerator": "{kind} ×{count}（{machine}，{cores} 核）",
    },
}


# --------------------------------------------------------------------------------------------
# 1 + 2: code cells must load snippets; snippets are dependencies; the probe is appended
# --------------------------------------------------------------------------------------------


def scan_code_cells(text: str) -> list[dict[str, Any]]:
    """Find the top-level ``{code-cell}`` fences of a MyST notebook and their options.

    >>> cells = scan_code_cells("---\\nfile_format: mystnb\\n---\\n"
    ...     "```{code-cell} python\\n:load: ../../snippets/a.py\\n:tab: JAX\\n```\\n"
    ...     "```{code-cell} python\\nprint(1)\\n```\\n")
    >>> [(c["line"], c["options"].get("load"), c["inline"]) for c in cells]
    [(4, '../../snippets/a.py', False), (8, None, True)]
    """
    cells = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = CODE_CELL_RE.match(lines[i])
        if not m:
            i += 1
            continue
        fence = m.group(1)
        start = i
        i += 1
        options: dict[str, str] = {}
        body: list[str] = []
        in_yaml = False
        closing = re.compile(rf"{re.escape(fence[0])}{{{len(fence)},}}\s*")
        while i < len(lines) and not closing.fullmatch(lines[i]):
            line = lines[i]
            if not body and line.strip() == "---":
                in_yaml = not in_yaml
            elif in_yaml or (not body and line.startswith(":")):
                key, _, value = line.lstrip(":").partition(":")
                options[key.strip()] = value.strip()
            elif line.strip() or body:
                body.append(line)
            i += 1
        cells.append(
            {
                "line": start + 1,
                "options": options,
                "inline": any(b.strip() for b in body),
            }
        )
        i += 1
    return cells


def _is_notebook(text: str) -> bool:
    head = FRONT_MATTER_RE.match(text)
    return bool(head) and ("mystnb" in head.group(0) or "jupytext" in head.group(0))


def check_page(app: Sphinx, docname: str, text: str) -> list[Path]:
    """Check the code cells of one page; return the snippet files it loads."""
    source = Path(app.env.doc2path(docname))
    snippets_dir = (Path(app.srcdir) / app.config.kb_snippets_dir).resolve()
    loaded = []
    for cell in scan_code_cells(text):
        where = f"{source}:{cell['line']}"
        target = cell["options"].get("load")
        if cell["inline"] or not target:
            logger.error(
                f"{where}: code cell without ':load:' (page {docname}). Every code cell loads its "
                f"code from a runnable file under {app.config.kb_snippets_dir}/, e.g. "
                f"':load: ../../snippets/<section>/<name>.py'; inline code is not allowed.",
                location=(docname, cell["line"]),
            )
            continue
        path = (source.parent / target).resolve()
        if not path.is_relative_to(snippets_dir):
            logger.error(
                f"{where}: ':load: {target}' is outside {snippets_dir} (page {docname}).",
                location=(docname, cell["line"]),
            )
            continue
        if not path.is_file():
            logger.error(
                f"{where}: ':load: {target}' does not exist (page {docname}).",
                location=(docname, cell["line"]),
            )
            continue
        loaded.append(path)
    return loaded


def on_source_read(app: Sphinx, docname: str, source: list[str]) -> None:
    app.env.kb_exec_count_before = _EXECUTIONS[0]  # for every page: "did reading it execute?"
    text = source[0]
    if not _is_notebook(text):
        return
    snippets = check_page(app, docname, text)
    for path in snippets:
        app.env.note_dependency(path)
    if not snippets:
        return
    # The probe goes last, so the page's own line numbers stay as written.
    page_dir = Path(app.env.doc2path(docname)).parent
    probe = os.path.relpath(PROBE_FILE, page_dir)
    app.env.note_dependency(PROBE_FILE)
    source[0] = (
        text.rstrip("\n")
        + f"\n\n```{{code-cell}} python\n:load: {probe}\n:tags: [remove-input, {PROBE_TAG}]\n```\n"
    )


# --------------------------------------------------------------------------------------------
# 3 + 6: execution, with per-cell timing; failures named; no execution in the Chinese build
# --------------------------------------------------------------------------------------------

_EXECUTIONS = [0]  # notebooks executed by this process


def _install_execution_hook() -> None:
    """Record per-cell timing and count executions (MyST-NB passes no record_timing)."""
    from myst_nb.core.execute import cache as nb_cache

    original = nb_cache.single_nb_execution
    if getattr(original, "_kb_wrapped", False):
        return

    def single_nb_execution(nb, *args, **kwargs):
        _EXECUTIONS[0] += 1
        kwargs["record_timing"] = True
        result = original(nb, *args, **kwargs)
        if result.err is None:
            move_timing_to_probe(nb)
        return result

    single_nb_execution._kb_wrapped = True  # type: ignore[attr-defined]
    nb_cache.single_nb_execution = single_nb_execution


def move_timing_to_probe(nb) -> None:
    """Move nbclient's per-cell timing into the probe's printed report.

    jupyter-cache hashes cell metadata, so timing left there would change the hash of every
    executed notebook and no later build (the Chinese one above all) would ever match it.
    Outputs are not hashed: the probe's output carries the seconds of each cell before it.
    """
    code = [c for c in nb.cells if c.cell_type == "code"]
    seconds = [_seconds(c.metadata.pop("execution", {}) or {}) for c in code]
    if not code or PROBE_TAG not in code[-1].metadata.get("tags", []):
        return
    for output in code[-1].get("outputs", []):
        if output.get("output_type") == "stream" and PROBE_MARKER in output.get("text", ""):
            info = parse_probe(output["text"])
            info["cell_seconds"] = seconds[:-1]
            output["text"] = PROBE_MARKER + json.dumps(info) + "\n"


def code_cells(doctree: nodes.Node) -> list[nodes.container]:
    return [
        n
        for n in doctree.findall(nodes.container)
        if n.get("nb_element") == "cell_code"
    ]


def describe_failure(
    cells: list[dict[str, Any]], exec_error: str | None, timeout: int
) -> tuple[int | None, int | None, str]:
    """Find the failing cell of an executed page.

    ``cells``: one dict per code cell in page order, with ``exec_count`` (None if it never
    finished), ``started`` (whether execution began) and ``traceback`` (text of an error output
    or None). Returns (index of the failing cell, line in that cell's snippet, reason).

    >>> describe_failure([{"exec_count": 1, "started": True, "traceback": None},
    ...                   {"exec_count": 2, "started": True,
    ...                    "traceback": "Cell In[2], line 7\\nAssertionError: loss differs"}],
    ...                  "CellExecutionError", 300)
    (1, 7, 'AssertionError: loss differs')
    >>> describe_failure([{"exec_count": 1, "started": True, "traceback": None},
    ...                   {"exec_count": None, "started": True, "traceback": None}],
    ...                  "CellTimeoutError", 5)
    (1, None, 'still running after the 5 s cell timeout; the kernel was stopped')
    >>> describe_failure([{"exec_count": None, "started": True,
    ...                    "traceback": "Cell In[1], line 5\\nKeyboardInterrupt: "}],
    ...                  "CellTimeoutError", 5)
    (0, 5, 'still running after the 5 s cell timeout; the kernel was stopped')
    """
    timed_out = bool(exec_error) and "Timeout" in exec_error
    timeout_reason = f"still running after the {timeout} s cell timeout; the kernel was stopped"
    for index, cell in enumerate(cells):
        tb = cell.get("traceback")
        if tb:
            tb = ANSI_RE.sub("", tb)
            lines = re.findall(rf"Cell In\[{cell['exec_count']}\], line (\d+)", tb)
            if not lines:
                lines = re.findall(r"Cell In\[\d+\], line (\d+)", tb)
            last = [ln for ln in tb.strip().splitlines() if ln.strip()]
            reason = last[-1].strip() if last else "error"
            if timed_out:  # nbclient interrupts the kernel: the traceback shows where it hung
                reason = timeout_reason
            return index, int(lines[-1]) if lines else None, reason
    for index, cell in enumerate(cells):
        if cell.get("exec_count") is None and cell.get("started", True):
            reason = timeout_reason if timed_out else f"did not finish ({exec_error or 'unknown error'})"
            return index, None, reason
    return None, None, exec_error or "unknown error"


def executed_cells(app: Sphinx, docname: str) -> list[dict[str, Any]]:
    """The code cells of a page's executed notebook (MyST-NB writes it after execution),
    each with its snippet, execution count, whether it started and its error text."""
    folder = Path(app.env.mystnb_config.output_folder)
    path = folder.joinpath(*(docname + ".ipynb").split("/"))
    if not path.is_file():
        return []
    notebook = json.loads(path.read_text(encoding="utf-8"))
    cells = []
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        meta = cell.get("metadata", {})
        timing = meta.get("execution", {})
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        cells.append(
            {
                "load": meta.get("load"),
                "probe": PROBE_TAG in meta.get("tags", []),
                "exec_count": cell.get("execution_count"),
                "started": "iopub.execute_input" in timing,
                "traceback": "\n".join(errors[-1].get("traceback", [])) if errors else None,
            }
        )
    return cells


def _seconds(timing: dict[str, str]) -> float | None:
    from datetime import datetime

    start, end = timing.get("iopub.execute_input"), timing.get("shell.execute_reply")
    if not (start and end):
        return None
    parse = lambda s: datetime.fromisoformat(s.replace("Z", "+00:00"))  # noqa: E731
    return (parse(end) - parse(start)).total_seconds()


def check_execution(app: Sphinx, doctree: nodes.document) -> None:
    from myst_nb.sphinx_ import NbMetadataCollector

    env = app.env
    docname = env.docname
    executed = _EXECUTIONS[0] > getattr(env, "kb_exec_count_before", _EXECUTIONS[0])
    if executed:
        logger.info(f"[kb] executed {docname}")
        env.kb_executed = getattr(env, "kb_executed", set()) | {docname}
        if not app.config.kb_execute:
            logger.error(
                f"{env.doc2path(docname)}: page {docname} was not in the shared execution cache, "
                f"and this build (kb_execute = False, the Chinese build) must not execute cells. "
                f"Build the English site first (nox -s docs does both, in that order).",
                location=docname,
            )
    exec_data = NbMetadataCollector.get_exec_data(env, docname)
    if not exec_data or exec_data.get("succeeded", True):
        return
    source = Path(env.doc2path(docname))
    cells = [c for c in executed_cells(app, docname) if not c["probe"]]
    index, line, reason = describe_failure(
        cells, exec_data.get("error"), app.config.nb_execution_timeout
    )
    if index is None or not cells[index]["load"]:
        snippet = "(the cell could not be identified)"
    else:
        path = (source.parent / cells[index]["load"]).resolve()
        snippet = os.path.relpath(path, Path(app.srcdir).parent) + (f":{line}" if line else "")
    logger.error(
        f"{source}: page {docname} failed to execute, in snippet {snippet}: {reason}",
        location=docname,
    )
    env.kb_failed = getattr(env, "kb_failed", set()) | {docname}


# --------------------------------------------------------------------------------------------
# 4: provenance
# --------------------------------------------------------------------------------------------


def parse_probe(text: str) -> dict[str, Any] | None:
    for line in text.splitlines():
        if line.startswith(PROBE_MARKER):
            return json.loads(line[len(PROBE_MARKER) :])
    return None


def describe_devices(info: dict[str, Any], words: dict[str, str]) -> str:
    """One line for the devices a page ran on.

    >>> w = PROVENANCE_TEXT["en"]
    >>> describe_devices({"backend": "cpu", "device_count": 8, "device_kind": "cpu",
    ...                   "machine": "Linux x86_64", "cpu_count": 2}, w)
    'CPU ×8 (emulated; Linux x86_64, 2 cores)'
    >>> describe_devices({"backend": "gpu", "device_count": 1, "device_kind": "NVIDIA H200",
    ...                   "machine": "Linux x86_64", "cpu_count": 16}, w)
    'NVIDIA H200 ×1 (Linux x86_64, 16 cores)'
    """
    common = {"count": info["device_count"], "machine": info["machine"], "cores": info["cpu_count"]}
    if info["backend"] == "cpu":
        emulated = words["emulated"] if info["device_count"] > 1 else ""
        return words["cpu"].format(emulated=emulated, **common)
    return words["accelerator"].format(kind=info["device_kind"], **common)


def provenance_node(info: dict[str, Any], seconds: float | None, language: str) -> nodes.Element:
    words = PROVENANCE_TEXT.get(language, PROVENANCE_TEXT["en"])
    separator = "，" if language.startswith("zh") else ", "
    packages = separator.join(f"{name} {version}" for name, version in info["packages"].items())
    took = words["took"].format(seconds=seconds) if seconds is not None else ""
    body = words["body"].format(
        python=info["python"], packages=packages, devices=describe_devices(info, words), took=took, date=info["date"]
    )
    box = nodes.container(classes=["kb-provenance"])
    para = nodes.paragraph()
    para += nodes.strong(text=words["label"])
    para += nodes.Text(body)
    box += para
    return box


def add_provenance(app: Sphinx, doctree: nodes.document) -> None:
    cells = code_cells(doctree)
    probes = [c for c in cells if PROBE_TAG in (c.get("cell_metadata", {}).get("tags", []))]
    if not probes:
        return
    probe = probes[-1]
    info = parse_probe(probe.astext())
    probe.parent.remove(probe)
    if info is None:
        return  # not executed (e.g. the gettext builder runs with execution off)
    times = info.get("cell_seconds", [])
    seconds = sum(t for t in times if t is not None) if any(t is not None for t in times) else None
    app.env.kb_cell_seconds = getattr(app.env, "kb_cell_seconds", {})
    app.env.kb_cell_seconds[app.env.docname] = times
    sections = list(doctree.findall(nodes.section))
    node = provenance_node(info, seconds, app.config.language or "en")
    if sections:
        title_index = 1 if isinstance(sections[0][0], nodes.title) else 0
        sections[0].insert(title_index, node)
    else:
        doctree.insert(0, node)


# --------------------------------------------------------------------------------------------
# 5: tabs from top-level executed cells
# --------------------------------------------------------------------------------------------


def tab_groups(children: Iterable[nodes.Node]) -> list[list[nodes.container]]:
    """Runs of adjacent code cells (siblings) that carry a ``tab`` label."""
    groups: list[list[nodes.container]] = []
    current: list[nodes.container] = []
    for child in children:
        if (
            isinstance(child, nodes.container)
            and child.get("nb_element") == "cell_code"
            and (child.get("cell_metadata", {}) or {}).get("tab")
        ):
            current.append(child)
            continue
        if isinstance(child, (nodes.comment, nodes.target)) and current:
            continue
        if current:
            groups.append(current)
        current = []
    if current:
        groups.append(current)
    return groups


def _slug(label: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-") or "tab"


def make_tabs(app: Sphinx, doctree: nodes.document) -> None:
    from sphinx_design.shared import create_component

    for parent in list(doctree.findall(nodes.Element)):
        for group in tab_groups(list(parent.children)):
            labels = [str(c["cell_metadata"]["tab"]) for c in group]
            if len(group) < 2 or len(set(labels)) != len(labels):
                logger.warning(
                    f"a ':tab:' group needs two or more cells with different labels, got {labels}",
                    location=group[0],
                )
                continue
            tab_set = create_component("tab-set", classes=["sd-tab-set", "kb-tabs"])
            tab_set.source, tab_set.line = group[0].source, group[0].line
            position = parent.index(group[0])
            for cell, label in zip(group, labels):
                item = create_component("tab-item", classes=["sd-tab-item"], selected=False)
                title = nodes.rubric(label, label, classes=["sd-tab-label"])
                title["sync_id"] = _slug(label)
                title["sync_group"] = "framework"
                item += title
                content = create_component("tab-content", classes=["sd-tab-content"])
                parent.remove(cell)
                content += cell
                item += content
                tab_set += item
            parent.insert(position, tab_set)


# --------------------------------------------------------------------------------------------


def on_doctree_read(app: Sphinx, doctree: nodes.document) -> None:
    check_execution(app, doctree)
    add_provenance(app, doctree)
    make_tabs(app, doctree)


def on_env_before_read(app, env, docnames) -> None:
    env.kb_executed = set()  # pages executed by this build (not by an earlier one)


def on_env_merge(app, env, docnames, other) -> None:
    env.kb_executed = getattr(env, "kb_executed", set()) | getattr(other, "kb_executed", set())
    env.kb_failed = getattr(env, "kb_failed", set()) | getattr(other, "kb_failed", set())
    merged = getattr(env, "kb_cell_seconds", {})
    merged.update(getattr(other, "kb_cell_seconds", {}))
    env.kb_cell_seconds = merged


def on_env_purge(app, env, docname) -> None:
    getattr(env, "kb_failed", set()).discard(docname)
    getattr(env, "kb_cell_seconds", {}).pop(docname, None)


def on_build_finished(app: Sphinx, exception) -> None:
    if exception is not None or app.builder.name not in ("html", "dirhtml"):
        return
    report = {
        "language": app.config.language,
        "executed": sorted(getattr(app.env, "kb_executed", set())),
        "cell_seconds": getattr(app.env, "kb_cell_seconds", {}),
        "finished": time.time(),
    }
    Path(app.outdir, "_kb_build.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    failed = sorted(getattr(app.env, "kb_failed", set()))
    if failed:
        # A closing summary; each failure was already logged as an error, which fails the build.
        logger.error("[kb] pages that failed to execute: " + ", ".join(failed))


def on_config_inited(app: Sphinx, config) -> None:
    title = config.kb_html_titles.get(config.language)
    if title:
        config.html_title = title


def create_cache(app: Sphinx) -> None:
    """Create the execution cache's database before parallel readers (sphinx -j) start: two
    processes that both find it missing race to create its tables, and one of them fails."""
    if app.config.nb_execution_mode == "cache" and app.builder.format == "html":
        from jupyter_cache import get_cache

        get_cache(app.config.nb_execution_cache_path).list_cache_records()


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("kb_snippets_dir", "../snippets", "env", types=[str])
    app.add_config_value("kb_html_titles", {}, "html", types=[dict])
    app.connect("config-inited", on_config_inited)
    app.add_config_value("kb_execute", True, "env", types=[bool])
    _install_execution_hook()
    app.connect("builder-inited", create_cache)
    app.connect("source-read", on_source_read)
    # Before sphinx-design's own handlers; tabs must exist before its post-transform.
    app.connect("doctree-read", on_doctree_read, priority=400)
    app.connect("env-before-read-docs", on_env_before_read)
    app.connect("env-merge-info", on_env_merge)
    app.connect("env-purge-doc", on_env_purge)
    app.connect("build-finished", on_build_finished)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
