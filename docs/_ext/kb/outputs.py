"""kb.outputs: cell outputs name the snippet, not the kernel's temporary file.

A page kernel compiles each cell under a temporary name such as
``/tmp/ipykernel_3854/2436610314.py``, and tracebacks and JAX's error messages quote it
("... relu_python at /tmp/ipykernel_3854/2436610314.py:6 ..."). That name changes with every build
and tells a reader nothing. Since each cell is exactly one snippet, kb rewrites it in the cell's
rendered outputs to the snippet's own path and the same line (``snippets/core/jit_if_tracer.py:6``),
so the output is the same from build to build and points at the file a reader can open.
"""

from __future__ import annotations

import re

from docutils import nodes

from .common import cell_options, code_cells, is_probe, snippet_path

KERNEL_FILE_RE = re.compile(r"(?:[^\s:\"'()]*[/\\])?ipykernel_\d+[/\\]\d+\.py")


def name_snippet(text: str, snippet: str) -> str:
    """``text`` with the kernel's temporary cell file replaced by ``snippet``.

    >>> name_snippet("relu at /tmp/ipykernel_3854/2436610314.py:6 for jit.", "snippets/core/a.py")
    'relu at snippets/core/a.py:6 for jit.'
    """
    return KERNEL_FILE_RE.sub(snippet, text)


def rewrite_outputs(app, doctree: nodes.document) -> None:
    for cell in code_cells(doctree):
        load = cell_options(cell).get("load")
        if not load or is_probe(cell):
            continue
        snippet = snippet_path(app, load)
        for output in cell.findall(lambda n: isinstance(n, nodes.container) and n.get("nb_element") == "cell_code_output"):
            for text in list(output.findall(nodes.Text)):
                if "ipykernel_" in text:
                    text.parent.replace(text, nodes.Text(name_snippet(str(text), snippet)))


def setup(app):
    app.connect("doctree-read", rewrite_outputs)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
