"""kb.downloads: each page with code offers its programs and itself for download.

1. A page with code cells gets a downloads line in its header box (``kb.page.put_in_header``):
   the page as a notebook (``.ipynb``, with its outputs) and as Markdown (``.md``, ``kb.markdown``),
   then each snippet it loads (``.py``, once each, in page order). The list of programs is folded
   (a closed ``<details>``, sphinx-design's dropdown nodes) so that a page with many snippets
   still shows its prose on the first screen; its summary line, which holds no link, says how
   many there are. The words come from ``kb.translations``.
2. With each page's HTML, its notebook is written to ``_kb/notebooks/<page>.ipynb``: the code
   cells of the notebook MyST-NB rendered, whose outputs are its snippets' records
   (``kb.run.store``), the same in every language, between markdown cells of the page's prose in
   the build's language (``kb.markdown.notebook_markdown``, from the translated doctree: MyST-NB's
   own markdown cells are the English source). Tracebacks in them already name the snippet and
   its line, since each snippet runs under its own file name (``kb.run.child``). ``kb.notebooks.prepare`` makes it one
   a reader runs top to bottom in one kernel: a runtime note and a Colab install cell first, a
   restart note before each program that needs a fresh kernel, in the build's language.
   Where the site names a GitHub repository (``kb_repo_url``, ``KB_REPO_URL``, or the theme's
   ``repository_url``) the line also offers "Open in Colab" (``kb.notebooks.colab_url``: the same
   notebook, on the branch the docs workflow publishes); without one there is no such link.
3. Each section's index page (``<section>/index``) offers all the section's programs at once:
   ``_kb/downloads/<section>-programs.zip`` holds every ``.py`` of ``snippets/<section>/`` (every
   snippet is on a page; the tests check that), written at the end of the build with fixed
   timestamps so the archive is the same from one build to the next. The index's line says how
   many programs there are, so an index whose section gained or lost a program is read again
   (``env-get-outdated``), even when no page of the section changed.

Sphinx's ``{download}`` role needs one role per file in the page's source; kb builds the line from
the cells themselves so no page repeats its ``:load:`` paths.
"""

from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.util import logging
from sphinx_design.dropdown import dropdown_main, dropdown_title

from .markdown import notebook_markdown
from .notebooks import NOTEBOOKS_BRANCH, colab_url, prepare, runtime_pins
from .page import put_in_header, loaded_snippets, page_relative
from .translations import _, format_nodes, separator

logger = logging.getLogger(__name__)
NOTEBOOKS = "_kb/notebooks"
ARCHIVES = "_kb/downloads"


def add_downloads(app, doctree: nodes.document) -> None:
    if app.builder.format != "html":
        return
    env, docname = app.env, app.env.docname
    loads = loaded_snippets(doctree)  # snippets/<section>/<name>.py, from the repository root
    if not loads:
        return
    root = Path(app.srcdir).parent
    notebook = nodes.reference("", str(_("this page as a notebook (.ipynb)")),
                               refuri=page_relative(docname, f"{NOTEBOOKS}/{docname}.ipynb"), classes=["kb-download-ipynb"])
    programs = nodes.paragraph(classes=["kb-downloads-programs"])
    for load in loads:
        if len(programs):
            programs += nodes.Text(separator(_("{program}, {next_program}")))
        name = Path(load).name
        target = os.path.relpath(root / load, Path(env.doc2path(docname)).parent)  # as the page wrote it
        ref = addnodes.download_reference("", "", reftarget=target, refdoc=docname, refexplicit=True,
                                          classes=["kb-download-py"])
        # Registered by hand: Sphinx's own download collector has already run for this page.
        rel_filename, _abs = env.relfn2path(target, docname)
        ref["filename"] = env.dlfiles.add_file(docname, rel_filename).as_posix()
        ref += nodes.literal(name, name)
        programs += ref
    markdown = nodes.reference("", str(_("as Markdown (.md)")), refuri=f"{Path(docname).name}.md",
                               classes=["kb-download-md"])  # written by kb.markdown
    line = nodes.paragraph(classes=["kb-downloads-page"])
    line += nodes.strong(text=str(_("Download: ")))
    line.extend(format_nodes(_("{notebook} · {markdown}"), notebook=notebook, markdown=markdown))
    colab = colab_url(repository_url(app.config), app.config.language, docname, app.config.kb_notebooks_branch)
    if colab:
        line += nodes.Text(separator(_("{notebook} · {markdown}")))
        line += nodes.reference("", str(_("Open in Colab")), refuri=colab, classes=["kb-open-colab"])
    # The summary holds no link: a link inside the control that folds the list would be a nested
    # control, which screen readers cannot reach (axe-core's nested-interactive).
    title = dropdown_title(classes=["kb-downloads-title"])
    title += nodes.Text(str(_("its programs ({count})")).format(count=len(loads)))
    folded = dropdown_main(classes=["kb-downloads"])
    folded += title
    folded += programs
    put_in_header(doctree, "downloads", line, folded)


def repository_url(config) -> str:
    """The site's repository: ``kb_repo_url`` (``KB_REPO_URL``), else the theme's ``repository_url``."""
    return config.kb_repo_url or (config.html_theme_options or {}).get("repository_url", "")


def notebook_words() -> dict[str, str]:
    """The sentences ``kb.notebooks.prepare`` adds to a notebook, in the build's language."""
    return {
        "separator": separator(_("{package}, {next_package}")),
        "runtime": str(_("**Run this notebook.** On Colab, pick the hardware first: *Runtime > Change runtime type*, "
                         "then a TPU (such as v5e-1) or a GPU (such as T4), and run the cells from the top; every "
                         "program also runs on the CPU. The next cell installs the versions this page was built "
                         "with ({packages}) on Colab only; if Colab then asks to restart the session, do so and run "
                         "on from the cell after it. Elsewhere, install the repository's `requirements.txt` first. "
                         "Where a program needs a process of its own, a note before it asks you to restart the "
                         "kernel (Colab: *Runtime > Restart session*; Jupyter: *Kernel > Restart*).")),
        "install": str(_("On Colab: the versions this page was built with (jax with the runtime's TPU or GPU plugin).\n"
                         "Elsewhere this cell does nothing: install requirements.txt instead.")),
        "restart": str(_("**Restart the kernel here** (Colab: *Runtime > Restart session*; Jupyter: *Kernel > "
                         "Restart*), then run on from the next cell. {reason}")),
        "comment": str(_("# Restart the kernel before this cell: {reason}")),
        "own": str(_("This program needs a process of its own: it changes settings of its process that later "
                     "programs would inherit, or what it prints depends on what ran before it.")),
        "changed": str(_("An earlier program changed settings of this process; this one expects JAX's defaults.")),
        "settings": str(_("This program sets {settings} before it imports JAX: JAX reads such settings only when "
                          "it is first imported in a process.")),
        "defaults": str(_("An earlier program set {settings} for this process; this one expects the defaults.")),
    }


def section_programs(app, section: str) -> list[Path]:
    """The programs of a section: every .py in its snippets folder."""
    return sorted((Path(app.srcdir) / app.config.kb_snippets_dir / section).glob("*.py"))


def add_section_archive(app, doctree: nodes.document) -> None:
    docname = app.env.docname
    section, _slash, rest = docname.partition("/")
    if app.builder.format != "html" or rest != "index":
        return
    count = len(section_programs(app, section))
    _counts(app.env)[docname] = count
    if not count:
        return
    name = f"{section}-programs.zip"
    link = nodes.reference("", "", refuri=page_relative(docname, f"{ARCHIVES}/{name}"), classes=["kb-download-zip"])
    link += nodes.literal(name, name)
    para = nodes.paragraph(classes=["kb-section-downloads"])
    para.extend(format_nodes(_("All programs of this section, in one archive: {archive} ({count} files)."),
                             archive=link, count=str(count)))
    first = next(iter(doctree.findall(nodes.paragraph)), None)
    if first is not None:
        first.parent.insert(first.parent.index(first) + 1, para)


def _counts(env) -> dict[str, int]:
    """How many programs each section index counted when it was last read."""
    if not hasattr(env, "kb_section_programs"):
        env.kb_section_programs = {}
    return env.kb_section_programs


def outdated_section_indexes(app, env, added, changed, removed) -> list[str]:
    """Section indexes whose count of programs is no longer the number in the section's folder."""
    counts = _counts(env)
    indexes = sorted(d for d in env.found_docs if d.partition("/")[2] == "index" and d not in changed | added)
    return [d for d in indexes if counts.get(d) != len(section_programs(app, d.partition("/")[0]))]


def purge_count(app, env, docname) -> None:
    _counts(env).pop(docname, None)


def merge_counts(app, env, docnames, other) -> None:
    _counts(env).update({d: c for d, c in _counts(other).items() if d in docnames})


def write_section_archives(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    folder = Path(app.outdir) / ARCHIVES
    for docname in sorted(app.env.found_docs):
        section, _slash, rest = docname.partition("/")
        programs = section_programs(app, section) if rest == "index" else []
        if not programs:
            continue
        folder.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(folder / f"{section}-programs.zip", "w", zipfile.ZIP_DEFLATED) as archive:
            for path in programs:
                info = zipfile.ZipInfo(f"{section}/{path.name}", date_time=(2026, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, path.read_bytes())


def write_notebook(app, pagename, templatename, context, doctree) -> None:
    """The page's notebook into _kb/notebooks/: MyST-NB's code cells, whose outputs are the
    records', between the page's prose in the build's language (``kb.markdown.notebook_markdown``:
    MyST-NB writes the source's English, and one notebook for every language)."""
    if doctree is None or app.builder.format != "html":
        return
    notebook = Path(app.env.mystnb_config.output_folder).joinpath(*f"{pagename}.ipynb".split("/"))
    if not notebook.is_file():
        return
    data = json.loads(notebook.read_text(encoding="utf-8"))
    code = [cell for cell in data["cells"] if cell["cell_type"] == "code"]
    if not code:
        return  # a page without code (MyST-NB reads every page as a notebook)
    prose = notebook_markdown(app, doctree, pagename)
    if len(prose) != len(code) + 1:
        logger.warning(f"its notebook holds {len(code)} code cells and the page {len(prose) - 1}: "
                       "no notebook written", location=pagename)
        return
    cells = []
    for number, text in enumerate(prose):
        if text:
            cells.append({"cell_type": "markdown", "id": f"kb-text-{number}", "metadata": {}, "source": text})
        cells += code[number:number + 1]
    data["metadata"].pop("source_map", None)  # line numbers of the page's source, not of the notebook
    requirements = Path(app.confdir) / "requirements.txt"
    data = prepare({**data, "cells": cells}, runtime_pins(requirements) if requirements.is_file() else {},
                   notebook_words())
    target = Path(app.outdir) / NOTEBOOKS / f"{pagename}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")


def setup(app):
    # The repository the site is published from (Colab's link); "env": the link is in each page's doctree.
    app.add_config_value("kb_repo_url", "", "env", types=[str])
    app.add_config_value("kb_notebooks_branch", NOTEBOOKS_BRANCH, "env", types=[str])
    app.connect("doctree-read", add_downloads)
    app.connect("doctree-read", add_section_archive)
    app.connect("env-get-outdated", outdated_section_indexes)
    app.connect("env-purge-doc", purge_count)
    app.connect("env-merge-info", merge_counts)
    app.connect("html-page-context", write_notebook)
    app.connect("build-finished", write_section_archives)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
