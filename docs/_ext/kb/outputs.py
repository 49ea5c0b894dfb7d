"""kb.outputs: cell outputs name the snippet, not the kernel's temporary file.

A page kernel compiles each cell under a temporary name such as
``/tmp/ipykernel_3854/2436610314.py``, and tracebacks and JAX's error messages quote it
("... relu_python at /tmp/ipykernel_3854/2436610314.py:6 ..."). That name changes with every build
and tells a reader nothing. Since each cell is exactly one snippet, kb rewrites it in the cell's
rendered outputs to the snippet's own path and the same line (``snippets/core/jit_if_tracer.py:6``),
so the output is the same from build to build and points at the file a reader can open.
The downloadable notebooks (``kb.downloads``) get the same rewrite (``name_snippets_in_notebook``),
and their consecutive pieces of one stream are joined as the page shows them (``merge_streams``;
the kernel cuts a cell's stdout into pieces at moments that differ from run to run).
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


def name_snippets_in_notebook(notebook: dict, snippets: list[str]) -> dict:
    """Rewrite the outputs of a notebook's code cells, the n-th code cell naming ``snippets[n]``,
    with the pieces of each stream joined (``merge_streams``).

    >>> nb = {"cells": [{"cell_type": "code", "outputs": [
    ...     {"output_type": "stream", "name": "stdout", "text": ["at /tmp/ipykernel_9/12.py:3\\n"]},
    ...     {"output_type": "error", "ename": "E", "evalue": "in /tmp/ipykernel_9/12.py:4",
    ...      "traceback": ["File /tmp/ipykernel_9/12.py:4"]}]}]}
    >>> out = name_snippets_in_notebook(nb, ["snippets/a.py"])["cells"][0]["outputs"]
    >>> out[0]["text"], out[1]["evalue"], out[1]["traceback"]
    ('at snippets/a.py:3\\n', 'in snippets/a.py:4', ['File snippets/a.py:4'])
    """
    code = [cell for cell in notebook["cells"] if cell.get("cell_type") == "code"]
    for cell in code:
        cell["outputs"] = merge_streams(cell.get("outputs", []))
    for cell, snippet in zip(code, snippets):
        for output in cell.get("outputs", []):
            for key in ("text", "traceback", "evalue"):
                if key in output:
                    value = output[key]
                    output[key] = ([name_snippet(v, snippet) for v in value] if isinstance(value, list)
                                   else name_snippet(value, snippet))
            for mime, value in output.get("data", {}).items():
                if mime.startswith("text/"):
                    output["data"][mime] = ([name_snippet(v, snippet) for v in value] if isinstance(value, list)
                                            else name_snippet(value, snippet))
    return notebook


def merge_streams(outputs: list[dict]) -> list[dict]:
    """Consecutive stream outputs of the same stream joined into one, as ``nb_merge_streams`` does
    for the page.

    >>> merge_streams([{"output_type": "stream", "name": "stdout", "text": "a\\n"},
    ...                {"output_type": "stream", "name": "stdout", "text": ["b\\n", "c"]},
    ...                {"output_type": "error", "ename": "E"}])
    [{'output_type': 'stream', 'name': 'stdout', 'text': 'a\\nb\\nc'}, {'output_type': 'error', 'ename': 'E'}]
    """
    merged: list[dict] = []
    for output in outputs:
        text = output.get("text")
        text = "".join(text) if isinstance(text, list) else text
        previous = merged[-1] if merged else None
        if (output.get("output_type") == "stream" and previous is not None
                and previous.get("output_type") == "stream" and previous.get("name") == output.get("name")):
            previous["text"] += text
        elif output.get("output_type") == "stream":
            merged.append({**output, "text": text})
        else:
            merged.append(output)
    return merged


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
