"""kb: the Sphinx extensions of the JAX knowledge base, one feature per module.

``extensions = [..., "kb"]`` in ``conf.py`` sets up every module below with
``app.setup_extension``. Each module's docstring is its numbered specification; its pure functions
carry doctests (run by ``nox -s tests``).

The order in which Sphinx runs what the modules' ``setup()`` connect: the events in a build's
order (``transform``: the transforms of each page, while it is parsed, after ``source-read``);
within one, the lower priority first, then the order of ``MODULES``. Handlers of other extensions
are named only where ours must come before or after them. ``tests/test_kb_event_order.py`` holds
this table to what every ``setup()`` registers.

================== ===== ========================================= ===================================
event              prio  handler (module.function)                 why this priority
================== ===== ========================================= ===================================
config-inited      400   reader.use_reader                         before MyST-NB reads its formats
config-inited      500   languages.on_config_inited
config-inited      500   mode.check
config-inited      500   accelerator_runs.fingerprint
config-inited      500   notfound.on_config_inited
config-inited      600   theme_words.on_config_inited              after kb.languages checks the table
config-inited      600   page_meta.on_config_inited                after kb.languages (site title)
builder-inited     500   execution.execute
builder-inited     500   search.on_builder_inited
builder-inited     500   search_zh.on_builder_inited
builder-inited     500   notfound.on_builder_inited
env-get-outdated   500   floors.reports_added_or_removed
env-get-outdated   500   accelerator_status.pages_added_or_removed
env-get-outdated   500   downloads.outdated_section_indexes
env-purge-doc      500   downloads.purge_count
source-read        500   cells.on_source_read
transform          5     accelerator_runs.AcceleratorFigures       before figures.FigureStrings (10)
transform          10    figures.FigureStrings                     before Sphinx's Locale (20)
transform          30    figures.TranslatedFigures                 after Locale
doctree-read       400   tabs.make_tabs                            before sphinx-design (500)
doctree-read       500   provenance.add_provenance
doctree-read       500   floors.add_floors
doctree-read       500   accelerator_runs.add_accelerator_runs
doctree-read       500   accelerator_status.add_backend_lines
doctree-read       500   differences.highlight_differences
doctree-read       500   examples.trim_examples
doctree-read       500   downloads.add_downloads
doctree-read       500   downloads.add_section_archive
doctree-read       500   api_links.link_api_names
doctree-read       500   pinyin_order.sort_glossaries
doctree-read       900   page_meta.remember_description            after the header box (provenance)
env-merge-info     500   downloads.merge_counts
doctree-resolved   500   search.keep_build_box_out
html-page-context  450   page_meta.meta_description                before sphinxext-opengraph (500)
html-page-context  500   downloads.write_notebook
html-page-context  500   search.on_page_context
html-page-context  500   pinyin_order.on_html_page_context
html-page-context  500   language_nav.on_html_page_context
html-page-context  600   markdown.page_markdown_and_menu           after the theme's buttons (501)
build-finished     500   execution.write_report
build-finished     500   downloads.write_section_archives
build-finished     500   markdown.llms_txt
build-finished     500   search.on_build_finished
build-finished     500   theme_words.translate_pages
================== ===== ========================================= ===================================

Making every page an executed, checked program:

- ``kb.mode``: the one switch (``kb_mode``: run, render, off, or run:<pages>) that decides whether
  a build runs snippets and shows their outputs.
- ``kb.cells``: every code cell loads a snippet; snippets are page dependencies.
- ``kb.run`` (no Sphinx events, and no Sphinx imported): the run core. One plan of the pages'
  programs (``kb.run.plan``), one scheduler (``kb.run.schedule``): each program runs as a reader
  runs it, most of them one after another in processes shared with other programs
  (``kb.run.batch``), the others each in a fresh process (``kb.run.runner``); as many at once as the
  platform allows (``kb.run.platforms``), timing programs alone after them. One record per run,
  keyed by what decides the result (``kb.run.store``). Its own docstring lists the rest.
- ``kb.reader``: MyST-NB's page reader fills each cell from its record.
- ``kb.execution``: before pages are read, every snippet has a record (the source language's
  HTML build runs the missing ones of the build's plan, ``kb.page.site_plan``); failures named
  with page, snippet and line; the build report.
- ``kb.expected_backend``: no snippet pins a platform unless the CPU is its subject (a marked pin); the
  backend each program started is the one the build expected (``kb_expect_backend``).
- ``kb.provenance``: the versions, devices and machine each page's programs ran with.
- ``kb.floors``: the oldest releases of jax, flax and optax each page runs on (the committed
  canary reports), and the migration page's table of them.
- ``kb.accelerator_runs``: a timing snippet's output on a reported GPU/TPU machine, beside its own.
- ``kb.accelerator_status``: how each page's programs ran on each reported accelerator (a header line),
  and the status page's table of every page against every backend.
- ``kb.tabs``: adjacent ``:tab:`` cells become one synced tab set.
- ``kb.figures``: figures are SVG with text as text, and their words are translated.
- ``kb.differences``: ``:differs-from:`` highlights the lines in which a cell's program differs
  from another program.
- ``kb.examples``: a page's ``>>>`` examples (``pycon`` blocks, run as doctests by pytest) end
  without the blank line that doctest needs before their closing fence.

What a reader of the two-language site meets:

- ``kb.languages``: the language table (``kb_languages`` in ``conf.py``) and the site title.
- ``kb.translations``: our interface strings through gettext (``kb/locales/``).
- ``kb.language_nav``: the language switch and ``hreflang`` alternates (the sitemap: sphinx-sitemap).
- ``kb.page_meta``: page descriptions, site name and locales for sphinxext-opengraph.
- ``kb.notfound``: the 404 page's words and paths for sphinx-notfound-page.
- ``kb.pinyin_order``: the Chinese general index and glossary in pinyin order.
- ``kb.theme_words``: the theme's own words (placeholder, tooltips, footer) in the build's language.
- ``kb.downloads``: a page's programs and notebook for download; each section's programs as a zip.
- ``kb.markdown``: every page as Markdown beside its HTML (the download menu's ``.md``) and ``llms.txt``.
- ``kb.search``: search in both languages takes the glossary's words a reader types for a term
  (显存, 多卡, OOM), and shows the pages holding most of the words when none holds them all.
- ``kb.search_zh``: Chinese search (jieba, a glossary dictionary, the query splitter).
- ``kb.api_links``: API names in prose link to the official reference.

Shared helpers: ``kb.page`` (the header box, code cells, the pages of a source tree),
``kb.glossary`` (the glossary's one reader), ``kb.machines`` (a machine as a report or a record
names it, worded from its parts in the build's language) and ``kb.notebooks`` (a page's notebook as
a reader runs it in one kernel, and its Colab link; ``kb.downloads`` writes it).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

MODULES = (
    "kb.languages",
    "kb.translations",
    "kb.mode",
    "kb.cells",
    "kb.reader",
    "kb.expected_backend",
    "kb.execution",
    "kb.provenance",
    "kb.floors",
    "kb.accelerator_runs",
    "kb.accelerator_status",
    "kb.tabs",
    "kb.figures",
    "kb.differences",
    "kb.examples",
    "kb.downloads",
    "kb.markdown",
    "kb.api_links",
    "kb.search",
    "kb.search_zh",
    "kb.notfound",
    "kb.theme_words",
    "kb.pinyin_order",
    "kb.language_nav",
    "kb.page_meta",
)


def code_version(folder: Path = Path(__file__).parent) -> int:
    """A number that changes with the extension's code and its interface catalogues.

    Most of what kb adds to a page (header box, provenance, floors, machine lines) is added when
    the page is read, and Sphinx keeps read pages in its environment; it re-reads them when a
    config value or an extension's ``env_version`` changes, not when an extension's code does. As
    kb's ``env_version``, this number makes an incremental build after an edit of ``docs/_ext/kb``
    (or of ``kb.po``) read every page again, as a clean build would, instead of keeping text that
    the old code generated.

    >>> import tempfile; d = Path(tempfile.mkdtemp()); _ = (d / "a.py").write_text("x = 1")
    >>> before = code_version(d); _ = (d / "a.py").write_text("x = 2"); before != code_version(d)
    True
    """
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.suffix in (".py", ".po") and "__pycache__" not in p.parts):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return int(digest.hexdigest()[:12], 16)


def setup(app):
    for module in MODULES:
        app.setup_extension(module)
    return {"version": "2.0", "env_version": code_version(), "parallel_read_safe": True, "parallel_write_safe": True}
