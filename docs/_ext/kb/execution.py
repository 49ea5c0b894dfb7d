"""kb.execution: pages execute once, in the source language's build, and the build says which.

1. MyST-NB executes a page through jupyter-cache's ``single_nb_execution``; kb wraps it (once per
   process) to count executions and to ask nbclient for per-cell timing (see ``kb.provenance``).
   The count is the one piece of module-level state in kb: it counts executions in this
   process, and a page read in this process compares it before and after (``BEFORE``).
2. A page whose reading executed it is logged (``[kb] executed core/jit``) and recorded
   (``EXECUTED``, forgotten at the start of each build).
3. Only the source language's HTML build executes. A build whose language has ``execute: False``
   in ``kb_languages`` (every translation), and any other builder (gettext reads the outputs to
   extract figure words, see ``kb.figures``), must find each page in the shared execution cache
   the source language's HTML build filled: a page it had to execute fails the build, with a
   message that says to build that first.
4. The execution cache's database is created before parallel readers (``sphinx -j``) start: two
   processes that both find it missing race to create its tables, and one of them fails.
5. At the end of an HTML build, ``_kb_build.json`` in the output folder lists the pages this build
   executed and each page's cell run times (read by the tests and by ``nox -s bench``).
6. Page kernels start from kb's own ``python3`` kernelspec (``kb/kernels/python3/kernel.json``,
   found first because ``setup`` puts ``kb/`` at the front of ``JUPYTER_PATH``; the pages keep
   naming ``python3``): the same ipykernel with SVG figures (see ``kb.figures``) and no warning
   at each kernel's start ("Kernel is running over TCP without encryption", once per page).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from sphinx.util import logging

from .common import PageState
from .languages import language
from .provenance import CELL_SECONDS, move_timing_to_probe

logger = logging.getLogger(__name__)

KERNELS = Path(__file__).parent  # a JUPYTER_PATH entry: its kernels/python3 is the page kernel
_EXECUTIONS = [0]  # notebooks executed by this process
BEFORE = PageState("executions_before")
EXECUTED = PageState("executed", per_build=True)


def install_execution_hook() -> None:
    """Wrap the function MyST-NB calls to execute a notebook (idempotent)."""
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


def before_reading(app, docname: str, source: list[str]) -> None:
    BEFORE.set(app.env, docname, _EXECUTIONS[0])


def after_reading(app, doctree) -> None:
    env = app.env
    docname = env.docname
    if _EXECUTIONS[0] <= BEFORE.get(env, docname, _EXECUTIONS[0]):
        return
    logger.info(f"[kb] executed {docname}")
    EXECUTED.set(env, docname, True)
    if not may_execute(app):
        why = (f"{app.config.language}: execute is False in kb_languages" if app.builder.format == "html"
               else f"the {app.builder.name} builder reads outputs from the cache")
        logger.error(
            f"page {docname} was not in the shared execution cache, and this build ({why}) must not "
            f"execute cells. Build the source language's HTML first (nox -s docs).",
            location=docname,
        )


def may_execute(app) -> bool:
    """Whether this build may execute pages: the source language's HTML build alone."""
    return bool(language(app.config)["execute"]) and app.builder.format == "html"


def create_cache(app) -> None:
    if app.config.nb_execution_mode == "cache" and app.builder.format == "html":
        from jupyter_cache import get_cache

        get_cache(app.config.nb_execution_cache_path).list_cache_records()


def write_report(app, exception) -> None:
    if exception is not None or app.builder.name not in ("html", "dirhtml"):
        return
    report = {
        "language": app.config.language,
        "executed": sorted(EXECUTED.of(app.env)),
        "cell_seconds": CELL_SECONDS.of(app.env),
        "finished": time.time(),
    }
    Path(app.outdir, "_kb_build.json").write_text(json.dumps(report, indent=1), encoding="utf-8")


def use_page_kernel() -> None:
    """Put kb's kernelspec first on JUPYTER_PATH (idempotent)."""
    rest = [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p and p != str(KERNELS)]
    os.environ["JUPYTER_PATH"] = os.pathsep.join([str(KERNELS), *rest])


def setup(app):
    use_page_kernel()
    install_execution_hook()
    BEFORE.connect(app)
    EXECUTED.connect(app)
    app.connect("builder-inited", create_cache)
    app.connect("source-read", before_reading)
    app.connect("doctree-read", after_reading)
    app.connect("build-finished", write_report)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
