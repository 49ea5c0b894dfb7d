"""kb.provenance: every executed page says once, near its top, what it ran with.

1. ``kb.cells`` appends a hidden probe cell (``probe_cell.py``) to every page that loads
   snippets; run last in the page's kernel, it prints one ``KB-PROVENANCE {json}`` line: Python
   and package versions (torch only where the page imported it), backend, devices, machine, date.
2. When MyST-NB executes a page, nbclient records each cell's run time
   (``record_timing_of(nb)`` asks for it); ``move_timing_to_probe`` moves those times from the
   cells' metadata into the probe's output, because jupyter-cache hashes cell metadata and timing
   left there would make no later build (the Chinese one above all) match the cache.
3. On reading the page the probe cell is removed and its report becomes one line in the page's
   header box (``kb.common.header_box``), worded in the build's language (``kb.translations``).
   The cells' run times are kept per page (``CELL_SECONDS``) for the build report.
"""

from __future__ import annotations

import json
from typing import Any

from docutils import nodes

from .common import PROBE_TAG, PageState, code_cells, header_box, is_probe
from .translations import _, separator

PROBE_MARKER = "KB-PROVENANCE "
CELL_SECONDS = PageState("cell_seconds")


def parse_probe(text: str) -> dict[str, Any] | None:
    for line in text.splitlines():
        if line.startswith(PROBE_MARKER):
            return json.loads(line[len(PROBE_MARKER):])
    return None


def _seconds(timing: dict[str, str]) -> float | None:
    from datetime import datetime

    start, end = timing.get("iopub.execute_input"), timing.get("shell.execute_reply")
    if not (start and end):
        return None
    parse = lambda s: datetime.fromisoformat(s.replace("Z", "+00:00"))  # noqa: E731
    return (parse(end) - parse(start)).total_seconds()


def move_timing_to_probe(nb) -> None:
    """Move nbclient's per-cell timing (cell metadata) into the probe's printed report."""
    code = [c for c in nb.cells if c.cell_type == "code"]
    seconds = [_seconds(c.metadata.pop("execution", {}) or {}) for c in code]
    if not code or PROBE_TAG not in code[-1].metadata.get("tags", []):
        return
    for output in code[-1].get("outputs", []):
        if output.get("output_type") == "stream" and PROBE_MARKER in output.get("text", ""):
            info = parse_probe(output["text"])
            info["cell_seconds"] = seconds[:-1]
            output["text"] = PROBE_MARKER + json.dumps(info) + "\n"


def describe_devices(info: dict[str, Any]) -> str:
    """One line for the devices a page ran on (in the build's language).

    >>> describe_devices({"backend": "cpu", "device_count": 8, "device_kind": "cpu",
    ...                   "machine": "Linux x86_64", "cpu_count": 2})
    'CPU ×8 (emulated; Linux x86_64, 2 cores)'
    >>> describe_devices({"backend": "gpu", "device_count": 1, "device_kind": "NVIDIA H200",
    ...                   "machine": "Linux x86_64", "cpu_count": 16})
    'NVIDIA H200 ×1 (Linux x86_64, 16 cores)'
    """
    common = {"count": info["device_count"], "machine": info["machine"], "cores": info["cpu_count"]}
    if info["backend"] == "cpu":
        emulated = str(_("emulated; ")) if info["device_count"] > 1 else ""
        return str(_("CPU ×{count} ({emulated}{machine}, {cores} cores)")).format(emulated=emulated, **common)
    return str(_("{kind} ×{count} ({machine}, {cores} cores)")).format(kind=info["device_kind"], **common)


def provenance_paragraph(info: dict[str, Any], seconds: float | None) -> nodes.paragraph:
    """The provenance line, in the build's language.

    >>> info = {"python": "3.12.1", "packages": {"jax": "0.12.0.1", "flax": "0.12.12"}, "backend": "cpu",
    ...         "device_count": 8, "device_kind": "cpu", "machine": "Linux x86_64", "cpu_count": 2,
    ...         "date": "2026-11-29"}
    >>> provenance_paragraph(info, 3.25).astext()  # doctest: +NORMALIZE_WHITESPACE
    'Executed at build time with Python 3.12.1, jax 0.12.0.1, flax 0.12.12, on CPU ×8 (emulated;
     Linux x86_64, 2 cores); the cells took 3.2 s; built 2026-11-29.'
    """
    between = separator(_("{package}, {next_package}"))
    packages = between.join(f"{name} {version}" for name, version in info["packages"].items())
    took = str(_("; the cells took {seconds:.1f} s")).format(seconds=seconds) if seconds is not None else ""
    body = str(_(" with Python {python}, {packages}, on {devices}{took}; built {date}.")).format(
        python=info["python"], packages=packages, devices=describe_devices(info), took=took, date=info["date"])
    para = nodes.paragraph()
    para += nodes.strong(text=str(_("Executed at build time")))
    para += nodes.Text(body)
    return para


def add_provenance(app, doctree: nodes.document) -> None:
    probes = [cell for cell in code_cells(doctree) if is_probe(cell)]
    if not probes:
        return
    probe = probes[-1]
    info = parse_probe(probe.astext())
    probe.parent.remove(probe)
    if info is None:
        return  # not executed (the gettext builder runs with execution off)
    times = info.get("cell_seconds", [])
    seconds = sum(t for t in times if t is not None) if any(t is not None for t in times) else None
    CELL_SECONDS.set(app.env, app.env.docname, times)
    header_box(doctree).insert(0, provenance_paragraph(info, seconds))


def setup(app):
    CELL_SECONDS.connect(app)
    app.connect("doctree-read", add_provenance)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
