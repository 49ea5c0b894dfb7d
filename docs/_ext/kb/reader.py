"""kb.reader: MyST-NB's page reader, which fills each code cell from its snippet's record.

1. ``read_page`` is the MyST-NB reader of every page (``nb_custom_formats`` for ``.md``, set by
   ``use_reader`` when the configuration is read): MyST-NB's own MyST-notebook reader, then each
   code cell's outputs filled from its snippet's record (``kb.run.store``; ``notebook_outputs``:
   stdout cut at each figure, a figure as ``image/svg+xml``). A page that is not a notebook is
   read the same way and has no code cells.
2. MyST-NB itself executes nothing (``nb_execution_mode = "off"``); it renders what the records
   hold. The records are made before any page is read (``kb.execution``).

Why our own code: the reader is MyST-NB's documented seam for giving it a notebook; what it adds
is the lookup of each cell's record.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .mode import shows_outputs
from .page import records_folder
from .run.store import current_record_path, read_record

LANGUAGE_INFO = {"name": "python", "pygments_lexer": "ipython3", "file_extension": ".py",
                 "mimetype": "text/x-python", "codemirror_mode": {"name": "ipython", "version": 3},
                 "nbconvert_exporter": "python"}


def notebook_outputs(record: dict[str, Any]) -> list[dict[str, Any]]:
    """A record as a notebook cell's outputs: stdout cut where each figure came.

    >>> outs = notebook_outputs({"stdout": "a\\nb\\n", "stderr": "", "figures": [
    ...     {"offset": 2, "svg": "<svg/>", "text": "<Figure>"}]})
    >>> [(o["output_type"], o.get("text") or sorted(o["data"])) for o in outs]
    [('stream', 'a\\n'), ('display_data', ['image/svg+xml', 'text/plain']), ('stream', 'b\\n')]
    """
    data = record["stdout"].encode("utf-8")
    outputs: list[dict[str, Any]] = []
    start = 0

    def stream(name: str, text: str) -> None:
        if text:
            outputs.append({"output_type": "stream", "name": name, "text": text})

    for figure in record["figures"]:
        stream("stdout", data[start:figure["offset"]].decode("utf-8", "replace"))
        start = max(start, figure["offset"])
        outputs.append({"output_type": "display_data", "metadata": {},
                        "data": {"image/svg+xml": figure["svg"], "text/plain": figure["text"]}})
    stream("stdout", data[start:].decode("utf-8", "replace"))
    stream("stderr", record["stderr"])
    return outputs


def read_page(text: str, *, records: str, root: str, enable_extensions: list[str]):
    """MyST-NB's reader for a page: its notebook, with each code cell's outputs from its record.

    ``kb.cells`` has given every good cell an absolute ``:load:`` path (MyST-NB's reader resolves a
    relative one against a page path it does not pass to custom readers); the cell's metadata
    then names the snippet from the repository root (``snippets/core/jit_x.py``), the one name of
    a snippet for every later step. A cell whose snippet has no record has no outputs (only
    ``nox -s page`` builds allow that; ``kb.execution`` fails every other build first).
    """
    import nbformat
    from myst_nb.core.read import read_myst_markdown_notebook
    from myst_parser.config.main import MdParserConfig

    config = MdParserConfig(enable_extensions=set(enable_extensions))
    notebook = read_myst_markdown_notebook(text, config=config, add_source_map=True, path=root)
    notebook.metadata.setdefault("language_info", LANGUAGE_INFO)
    for cell in notebook.cells:
        load = cell.metadata.get("load") if cell.cell_type == "code" else None
        if not load:
            continue
        snippet = Path(os.path.relpath(load, root)).as_posix()
        cell.metadata["load"] = snippet
        if not records:
            continue
        record = read_record(current_record_path(Path(records), Path(root), snippet))
        cell.outputs = [nbformat.from_dict(o) for o in notebook_outputs(record)] if record else []
    return notebook


def use_reader(app, config) -> None:
    """Make ``read_page`` MyST-NB's reader of ``.md`` pages (its ``nb_custom_formats`` seam)."""
    kwargs = {"records": str(records_folder(app.srcdir, config)) if shows_outputs(config) else "",
              "root": str(Path(app.srcdir).parent.resolve()),
              "enable_extensions": sorted(config.myst_enable_extensions)}
    config.nb_custom_formats = {**config.nb_custom_formats, ".md": ("kb.reader.read_page", kwargs, False)}
    config.nb_execution_mode = "off"


def setup(app):
    app.connect("config-inited", use_reader, priority=400)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
