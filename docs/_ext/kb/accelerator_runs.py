"""kb.accelerator_runs: a measurement made on a GPU or TPU is shown beside the build's own, labelled.

1. ``tools/machine/report.py`` runs every snippet on an accelerator machine (a lent GPU box, a
   TPU VM) and writes a dated report to ``reports/machines/`` (``kb_machine_reports``, from the
   repository root): per snippet the outcome, the backend it started, the versions it imported,
   what it printed, and the sha256 of the program it ran.
2. When a page is read, each cell whose snippet prints timings (``kb.run.snippet.TIMINGS``)
   gets, after its own output, what the same program printed on each reported accelerator
   machine: a box labelled with the machine, its device, the jax version it used (and how its
   versions differ from the site's pins) and the date, worded in the build's language (the
   machine from its parts, ``kb.machines``, never the report's English). Only a run that passed and
   ran exactly the program the page shows (the same sha256) is shown: after an edit to the
   snippet its old accelerator figures go away until a new report is committed. A program that
   starts JAX only in child processes (``kb.run.snippet.starts_jax_in_children``: its own process
   reports no backend) is shown too, labelled with the report's accelerator and versions and "in
   child processes"; a program that starts no JAX at all (a PyTorch tab) is not: on that machine it
   ran on the host's CPU.
3. A figure the program drew there (a report row keeps the SVG of each figure of a timing
   program) is shown in its box under the output, translated like the cell's own figures: a
   transform ahead of ``kb.figures`` (``AcceleratorFigures``) places each shown run's figures at the
   end of the cell, where ``kb.figures`` gathers their words and the cell's ``:alt:`` text for the
   catalogue and swaps in the translated SVG, and the box built after reading takes them from there.
   The SVG is written, named by its digest, where MyST-NB writes the cells' own outputs.
4. Without a report nothing is added, so the site never shows an accelerator figure that no run
   produced; a report that cannot be read fails the build, naming the file.

Names: a *machine report* is the file (``tools/machine/report.py`` writes it, ``reports/machines/``
holds it, ``kb_machine_reports`` names the folder), for any machine, a CPU-only control included;
an *accelerator run* is what a page shows from it: a row of a report whose machine started a GPU
or TPU backend. Every file, option and class of the feature uses one of these two names.

Why our own code: the reports are this project's files (``tools/machine/report.py``), and no
Sphinx or MyST-NB extension places another machine's output beside a cell.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.transforms import SphinxTransform
from sphinx.util import logging

from .machines import machine_text
from .mode import shows_outputs
from .page import cell_options, code_cells
from .run.plan import snippet_digest
from .run.snippet import is_timing, starts_jax_in_children
from .translations import _, separator

logger = logging.getLogger(__name__)
ACCELERATOR_RUN_CLASS = "kb-accelerator-run"
FIGURES_CLASS = "kb-accelerator-figures"  # a run's figures, from the cell (translated) to its box


@lru_cache(maxsize=4)
def read_reports(folder: Path, digest: str = "") -> list[dict[str, Any]]:
    """The reports in ``folder`` whose machine started an accelerator backend, newest first
    (read once per build: ``digest``, the folder's fingerprint, is the cache key with it)."""
    reports = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            report = json.loads(path.read_text(encoding="utf-8"))
            rows = {row["snippet"]: row for row in report["snippets"]}
            label = (report["date"], report["machine"])
        except (OSError, ValueError, KeyError, TypeError) as error:
            logger.warning(f"[kb] machine report {path} cannot be read ({error!r}); fix or remove it")
            continue
        if any(b != "cpu" for b in report.get("backends", [])):
            reports.append({**report, "rows": rows, "label": label, "path": str(path)})
    return sorted(reports, key=lambda r: r["label"], reverse=True)


def accelerator_reports(app_or_env) -> list[dict[str, Any]]:
    """The project's accelerator reports (``kb_machine_reports``), for an app or a build environment."""
    config = app_or_env.config
    root = Path(app_or_env.srcdir).parent
    return read_reports(root / config.kb_machine_reports, config.kb_machine_reports_digest)


def shown_row(report: dict[str, Any], snippet: str, current_sha256: str, children: bool = False) -> dict[str, Any] | None:
    """The report's row for ``snippet`` if it may be shown: it passed, on an accelerator, on these bytes.
    ``children``: the program starts JAX only in child processes, so its own row has no backend.

    >>> row = {"snippet": "snippets/p/a.py", "outcome": "ok", "backend": "gpu", "sha256": "ab", "stdout": "1 ms\\n"}
    >>> rep = {"rows": {"snippets/p/a.py": row}}
    >>> shown_row(rep, "snippets/p/a.py", "ab") is row, shown_row(rep, "snippets/p/a.py", "cd")
    (True, None)
    >>> shown_row({"rows": {"snippets/p/a.py": row | {"outcome": "failed"}}}, "snippets/p/a.py", "ab") is None
    True
    >>> parent = {"rows": {"snippets/p/a.py": row | {"backend": None}}, "backends": ["tpu"]}
    >>> shown_row(parent, "snippets/p/a.py", "ab") is None, shown_row(parent, "snippets/p/a.py", "ab", children=True) is None
    (True, False)
    """
    row = report["rows"].get(snippet)
    if not row or row.get("outcome") != "ok" or row.get("backend") == "cpu":
        return None
    if row.get("backend") is None and not (children and any(b != "cpu" for b in report.get("backends", []))):
        return None
    return row if row.get("sha256") == current_sha256 else None


def label(report: dict[str, Any], row: dict[str, Any]) -> str:
    """The sentence above another machine's output, in the build's language.

    >>> rep = {"machine": "Linux x86_64, 16 CPU cores, NVIDIA H200", "date": "2026-12-02T01:00:00+00:00",
    ...        "differs_from_pins": {"jax": {"here": "0.11.2", "pinned": "0.12.0.1"}}}
    >>> label(rep, {"backend": "gpu", "packages": {"jax": "0.11.2"}})
    'On another machine (Linux x86_64, 16 CPU cores, NVIDIA H200; backend gpu; jax 0.11.2, not the pinned 0.12.0.1; 2026-12-02), the same program printed:'

    The machine is worded from its parts (``kb.machines``), never quoted from the report.
    """
    packages, backend = row.get("packages", {}), row["backend"]
    if backend is None:  # JAX ran in the program's child processes, with the machine's versions
        packages = {name: v for name, v in report.get("installed", {}).items() if name in ("jax", "jaxlib")}
        backend = str(_("{backend}, in child processes")).format(
            backend=", ".join(b for b in report.get("backends", []) if b != "cpu"))
    versions = separator(_("{package}, {next_package}")).join(
        f"{name} {version}" + (str(_(", not the pinned {pinned}")).format(pinned=report["differs_from_pins"][name]["pinned"])
                               if name in report.get("differs_from_pins", {}) else "")
        for name, version in packages.items() if name in ("jax", "jaxlib", "torch"))
    return str(_("On another machine ({machine}; backend {backend}; {versions}; {date}), the same program printed:")).format(
        machine=machine_text(report["machine"]), backend=backend, versions=versions, date=report["date"][:10])


def shown_runs(app, cell: nodes.Element) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The (report, row) pairs shown beside ``cell``: its snippet prints timings, and each row passed
    on an accelerator with the bytes the page shows (``shown_row``), newest report first."""
    snippet = cell_options(cell).get("load")
    path = Path(app.srcdir).parent / snippet if snippet else None
    source = path.read_text(encoding="utf-8") if path is not None and path.is_file() else None
    if source is None or not is_timing(source):
        return []
    digest = snippet_digest(path)
    children = starts_jax_in_children(source)
    runs = []
    for report in accelerator_reports(app):
        row = shown_row(report, snippet, digest, children)
        if row is not None:
            runs.append((report, row))
    return runs


class AcceleratorFigures(SphinxTransform):
    """3: each shown run's figures as images in a container at the end of their cell, before
    ``kb.figures.FigureStrings`` (priority 10) gathers figure words for translation."""

    default_priority = 5

    def apply(self, **kwargs) -> None:
        if not shows_outputs(self.config) or not accelerator_reports(self.app):
            return
        folder = Path(self.env.mystnb_config.output_folder)
        for cell in code_cells(self.document):
            for run, (_report, row) in enumerate(shown_runs(self.app, cell)):
                if not row.get("figures"):
                    continue
                holder = nodes.container(classes=[FIGURES_CLASS], kb_run=run)
                for svg in row["figures"]:
                    path = folder / f"{hashlib.sha256(svg.encode()).hexdigest()}.svg"
                    if not path.is_file():
                        folder.mkdir(parents=True, exist_ok=True)
                        tmp = path.with_name(f".{path.name}.{os.getpid()}")
                        tmp.write_text(svg, encoding="utf-8")
                        os.replace(tmp, path)
                    image = nodes.image(uri="/" + os.path.relpath(path, self.app.srcdir))
                    image.source, image.line = cell.source, cell.line
                    holder += image
                cell += holder


def add_accelerator_runs(app, doctree: nodes.document) -> None:
    if not shows_outputs(app.config) or not accelerator_reports(app):
        return
    for cell in code_cells(doctree):
        figures = {holder["kb_run"]: holder for holder in cell.findall(nodes.container)
                   if FIGURES_CLASS in holder.get("classes", [])}
        boxes = []
        for run, (report, row) in enumerate(shown_runs(app, cell)):
            box = nodes.container(classes=[ACCELERATOR_RUN_CLASS])
            box += nodes.paragraph(text=label(report, row))
            box += nodes.literal_block(row["stdout"].rstrip("\n"), row["stdout"].rstrip("\n"), language="none")
            if run in figures:  # translated by kb.figures by now
                figures[run].parent.remove(figures[run])
                box += figures[run]
            boxes.append(box)
        index = cell.parent.index(cell)
        for offset, box in enumerate(boxes, 1):
            cell.parent.insert(index + offset, box)


def fingerprint(app, config) -> None:
    """A digest of the reports, as a config value: a new, changed or removed report re-reads every page."""
    folder = Path(app.srcdir).parent / config.kb_machine_reports
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    config.kb_machine_reports_digest = digest.hexdigest()


def setup(app):
    app.add_config_value("kb_machine_reports", "reports/machines", "env", types=[str])
    app.add_config_value("kb_machine_reports_digest", "", "env", types=[str])
    app.connect("config-inited", fingerprint)
    app.add_transform(AcceleratorFigures)
    app.connect("doctree-read", add_accelerator_runs)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
