"""kb.expected_backend: every snippet runs on the reader's hardware, and the build proves which backend it used.

1. **No platform pins.** A snippet never sets ``JAX_PLATFORMS`` (so a copied program runs on the
   reader's GPU or TPU), except where the CPU is its subject; then the line that sets it carries
   the marker ``# CPU by design: <reason>`` and the page says why. ``pins(source)`` lists every
   line of a program that sets the variable, with its reason or ``None``; the tests fail on a pin
   without a reason (``tests/test_snippet_backends.py``).
2. **The backend the build expected.** ``kb_expect_backend`` (``conf.py``; the environment
   variable ``KB_EXPECT_BACKEND``, which ``nox -s docs-gpu`` sets to ``gpu``) names the JAX
   backend every snippet's program must have started. A record whose program started another
   backend fails the build, at each page that loads it: on a GPU machine that is JAX falling back
   to the CPU (a missing CUDA plugin, or a GPU whose memory another process took), which would
   otherwise print CPU figures on pages built "on the GPU". Programs that start no JAX backend
   (PyTorch-only tabs) and those marked CPU by design are not held to it. Empty (the default of
   ``nox -s docs``): whatever the machine offers, and the header box names it.

Why our own code: the backend a program used is known only from its run (``kb.run.child``'s note of
the devices it started), and no Sphinx or MyST-NB extension reads it.
"""

from __future__ import annotations

import os
from typing import Any

from sphinx.util import logging

from .run.snippet import MARKER, cpu_by_design, pins  # noqa: F401 (the grammar lives in the run core)

logger = logging.getLogger(__name__)


def started_backend(record: dict[str, Any]) -> str | None:
    """The JAX backend a record's program started, or None if it started none."""
    devices = (record.get("ran_with") or {}).get("devices") or []
    return devices[0]["backend"] if devices else None


def wrong_backend(record: dict[str, Any], source: str, expected: str) -> str | None:
    """Why a record does not show the expected backend, or None if it does (or need not).

    >>> rec = {"snippet": "snippets/s/a.py", "ran_with": {"devices": [{"backend": "cpu", "count": 1}]}}
    >>> wrong_backend(rec, "import jax\\n", "gpu")[:59]
    'snippet snippets/s/a.py ran on the cpu backend, but this bu'
    >>> wrong_backend(rec, "import jax\\n", "cpu") is None, wrong_backend(rec, "import jax\\n", "") is None
    (True, True)
    >>> wrong_backend(rec, 'e["JAX_PLATFORMS"] = "cpu"  # CPU by design: schedulers\\n', "gpu") is None
    True
    """
    backend = started_backend(record)
    if not expected or backend is None or backend == expected or cpu_by_design(source):
        return None
    return (f"snippet {record['snippet']} ran on the {backend} backend, but this build expects {expected} "
            f"(kb_expect_backend / KB_EXPECT_BACKEND): JAX did not start the {expected} backend for it. "
            f"Check that the {expected} plugin of jaxlib is installed and that no other process holds the "
            f"device's memory; its stderr in the record says why.")


def check(app, plan, records: dict[str, dict[str, Any]], root) -> None:
    """One error per page for each record that started another backend than the expected one."""
    expected = app.config.kb_expect_backend
    if not expected:
        return
    for name, record in sorted(records.items()):
        reason = wrong_backend(record, (root / name).read_text(encoding="utf-8"), expected)
        if reason is None:
            continue
        for page in plan.pages_of(name):
            logger.error(f"page {page}: {reason}", location=page)


def setup(app):
    app.add_config_value("kb_expect_backend", os.environ.get("KB_EXPECT_BACKEND", ""), "", types=[str])
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
