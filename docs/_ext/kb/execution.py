"""kb.execution: before any page is read, every snippet of the site has a record.

1. When the builder starts, kb takes the build's plan (``kb.page.site_plan``: the pages Sphinx
   finds, each page's snippets, one job per snippet however many pages load it) and looks up each
   snippet's record (``kb.run.store``: keyed by the snippet's bytes and what it runs with).
2. Only the source language's HTML build runs snippets, and only those without a good record, with
   the one scheduler (``kb.run.schedule.run``: shared processes where a program allows it, as many
   at once as the machine has cores, then the timing snippets alone), each record written as soon
   as its program ends. On a platform that one process at a time may hold (a TPU,
   ``kb.run.platforms``) the build refuses to run programs and names the machine pass instead.
   Whether a build may run is ``kb.mode``'s answer: a translation (``source: False`` in
   ``kb_languages``), any other builder (gettext reads the figures' words from the records, see
   ``kb.figures``) and ``kb_mode = "render"`` (the render after sharded runs,
   ``nox -s docs -- --records``) run nothing: a snippet without a record fails them, with a message that says to build the
   source language first. Rendering is then a lookup: the page reader ``kb.reader.read_page``
   fills each cell from its record, and MyST-NB executes nothing.
3. A snippet that raised, failed an ``assert``, ran past the timeout (``kb_snippet_timeout``),
   wrote to stderr or printed nothing fails the build with one error at each page that loads it:
   ``page core/jit failed to execute, in snippet snippets/core/jit_x.py:7: AssertionError: ...``
   (``wrote to stderr`` quotes the warning with its line in the snippet). The other snippets all
   run first, so one broken program never hides another.
4. Each good record's backend is checked against ``kb_expect_backend`` (``kb.expected_backend``).
5. ``kb_mode = "run:<page>,<page>"`` (``nox -s page``, a drafting aid) runs only the named pages'
   snippets; the other pages show no outputs where they have no record. A whole-site build that may run
   snippets then removes the records no snippet can use any more (older keys).
6. At the end of an HTML build, ``_kb_build.json`` in the output folder lists the snippets this
   build ran (with their seconds, how they ran and whether alone), the wall time of that run phase,
   every page's snippets and each snippet's record (read by the tests and by ``nox -s bench``).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from sphinx.errors import SphinxError
from sphinx.util import logging

from . import expected_backend
from .mode import may_execute, mode, shows_outputs, why_not
from .page import records_folder, site_plan
from .run.platforms import current
from .run.runner import earlier_seconds
from .run.schedule import run
from .run.store import failure_message, good_record, output_tail, problem, read_record, record_path, write_record

logger = logging.getLogger(__name__)


class ExclusiveDevice(SphinxError):
    category = "This machine's accelerator can be held by one process at a time"


def execute(app) -> None:
    if not shows_outputs(app.config):
        return
    plan = site_plan(app.srcdir, app.config)
    folder = records_folder(app.srcdir, app.config)
    chosen = mode(app.config).pages
    wanted = {name for page, names in plan.pages.items() if not chosen or page in chosen for name in names}
    missing = [item for name, item in sorted(plan.jobs.items())
               if name in wanted and good_record(folder, name, item.key) is None]
    ran: dict[str, dict] = {}
    phase = 0.0
    if missing and may_execute(app):
        platform = current()
        if platform.exclusive:
            raise ExclusiveDevice(
                f"{len(missing)} snippets have no record, and this is a {platform.label} machine: running the site's "
                f"programs here, many at once, would have each open the device that one process at a time may hold. "
                f"Run them with the machine pass instead ({platform.pass_command}; reports/machines/README.md), "
                f"or build the site on a machine without one.")
        logger.info(f"[kb] running {len(missing)} of {len(plan.jobs)} snippets")

        def done(record):
            write_record(folder, record)
            ran[record["snippet"]] = {"seconds": record["seconds"], "how": record["how"], "alone": record["alone"]}
            logger.info(f"[kb] ran {record['snippet']} in {record['seconds']:.1f} s ({record['how']})"
                        + (" (alone: it prints timings)" if record["alone"] else ""))
            if len(ran) % 50 == 0 or len(ran) == len(missing):  # shown even with -q: a cold build is long
                print(f"[kb] {len(ran)} of {len(missing)} snippets run", file=sys.stderr, flush=True)

        begin = time.perf_counter()
        run(missing, timeout=app.config.kb_snippet_timeout, done=done,
            cost={item.name: earlier_seconds(folder, item.name) or 1.0 for item in missing})
        phase = time.perf_counter() - begin
    elif missing:
        for item in missing:
            first = plan.pages_of(item.name)[0]
            logger.error(f"snippet {item.name} (page {first}) has no record, and this build ({why_not(app)}) "
                         f"must not execute snippets. Build the source language's HTML first (nox -s docs).",
                         location=first)
    # Each wanted record read once more, now that the missing ones have run.
    current_records = {name: read_record(record_path(folder, name, item.key)) for name, item in sorted(plan.jobs.items())
                       if name in wanted}
    report_failures(plan, current_records)
    good = {name: record for name, record in current_records.items() if record is not None and problem(record) is None}
    expected_backend.check(app, plan, good, Path(app.srcdir).parent)
    if may_execute(app) and not chosen:
        prune(folder, {record_path(folder, name, item.key) for name, item in plan.jobs.items()})
    app.env.kb_run = {"ran": dict(sorted(ran.items())), "run_phase_seconds": round(phase, 2), "pages": plan.pages,
                      "records": {name: str(record_path(folder, name, item.key)) for name, item in plan.jobs.items()}}


def report_failures(plan, current: dict[str, dict | None]) -> None:
    """Each failed record once, at every page that loads its snippet, with what it printed last."""
    failed = []
    for name, record in current.items():
        if record is None or problem(record) is None:
            continue
        for page in plan.pages_of(name):
            logger.error(failure_message(page, record), location=page)
        logger.error(f"[kb] what {name} printed last:\n{output_tail(record)}")
        failed.append(name)
    if failed:
        logger.error("[kb] snippets that failed: " + ", ".join(failed))


def prune(folder: Path, current: set[Path]) -> None:
    """Remove the records that no snippet of the site can use any more (an older key)."""
    for path in folder.rglob("*.json"):
        if path not in current:
            path.unlink(missing_ok=True)


def write_report(app, exception) -> None:
    if exception is not None or app.builder.name not in ("html", "dirhtml"):
        return
    summary = getattr(app.env, "kb_run", None) or {"ran": {}, "run_phase_seconds": 0.0, "pages": {}, "records": {}}
    report = {"language": app.config.language, **summary, "workers": os.cpu_count(), "finished": time.time()}
    Path(app.outdir, "_kb_build.json").write_text(json.dumps(report, indent=1), encoding="utf-8")


def setup(app):
    app.add_config_value("kb_records", "_build/records", "", types=[str])
    app.add_config_value("kb_snippet_timeout", 300, "", types=[int])
    app.connect("builder-inited", execute)
    app.connect("build-finished", write_report)
    return {"version": "2.0", "parallel_read_safe": True, "parallel_write_safe": True}
