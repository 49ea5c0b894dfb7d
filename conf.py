"""Sphinx configuration for the JAX knowledge base (English source, Chinese via gettext).

Build with `nox -s docs`; the source directory is `docs/`, this file is used with `-c .`.
`nox` imports this file too (for `kb_languages`), so its top level uses the standard library only.

Paths: those of this repository are spelled from ROOT (absolute); `locale_dirs`,
`kb_snippets_dir` and `exclude_patterns` are relative to the source directory, because the
fixture projects under tests/fixtures/ are built with this same file from their own sources.
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
DOCS = ROOT / "docs"
# Our extension package, docs/_ext/kb, importable for Sphinx (it runs this file) and for the tools
# (they import this file through tools.site). Not the only import path: pytest, nox and the two
# scripts that run without the environment have their own (LAYOUT.md, "Imports").
sys.path.insert(0, str(DOCS / "_ext"))

project = "JAX for PyTorch users"
author = "The JAX knowledge base authors"  # each language's own is in kb_languages
copyright = "2026, " + author

extensions = [
    "myst_nb",
    "sphinx_design",
    "sphinx_copybutton",
    "sphinx_sitemap",  # sitemap.xml of each language, every page with its other-language alternates
    "sphinxext.opengraph",  # Open Graph tags and the meta description (kb.page_meta feeds both)
    "notfound.extension",  # the 404 page, with links that work at any missing address (kb.notfound)
    "kb",  # docs/_ext/kb: one module per feature (see its docstring)
]
templates_path = [str(DOCS / "_templates")]

# --- Pages (relative to the source directory) -------------------------------------------------
# What is a page: every .md under the source directory except these (kb.page.source_pages).
exclude_patterns = ["_build", "_data", "_ext", "_root", "_templates", "locales", "**/.ipynb_checkpoints"]
source_suffix = {".md": "myst-nb"}
root_doc = "index"
kb_snippets_dir = "../snippets"  # every code cell loads a file from here (kb.cells)

# --- MyST -----------------------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath"]
myst_heading_anchors = 3

# --- Execution: every snippet runs once, alone, in a fresh process (kb.run, kb.execution) -----
# MyST-NB executes nothing: kb.reader makes its reader fill each cell from the snippet's record
# (nb_custom_formats, nb_execution_mode = "off"). The source language's HTML build runs the
# snippets that have no record yet, before any page is read (kb.execution).
kb_records = str(ROOT / "_build" / "records")
kb_snippet_timeout = int(os.environ.get("KB_SNIPPET_TIMEOUT", "300"))
nb_execution_mode = "off"
nb_output_stderr = "show"  # a record with stderr fails the build first (kb.execution), naming the snippet
nb_merge_streams = True
# The gettext builder reads cell outputs too, and takes a figure's SVG so that kb.figures can
# extract its words into the page's catalogue (MyST-NB gives gettext text/plain only by default).
nb_mime_priority_overrides = [("gettext", "image/svg+xml", 5)]
# kb.mode: run (the default), render, off; `nox -s page` (a drafting aid) sets run:<page>,<page>.
kb_mode = os.environ.get("KB_MODE", "run")

# --- Languages: the one table (kb.languages; nox reads it too) -------------------------------
# The source language comes first; only its build executes cells, the others read its records.
# script, search, index_order and glossary are what the code branches on (kb.languages.CHOICES);
# pages is the line of the root llms.txt (tools.root_pages writes it and the root page from this table).
kb_languages = {
    "en": {"hreflang": "en", "og_locale": "en_US", "label": "English", "switch": "Read this page in English",
           "title": "JAX for PyTorch users", "author": author, "source": True, "pages": "the pages in English",
           "script": "latin", "search": "sphinx", "index_order": "alphabetical", "glossary": "english"},
    "zh_CN": {"hreflang": "zh-CN", "og_locale": "zh_CN", "label": "简体中文", "switch": "阅读本页中文版",
              "title": "写给 PyTorch 用户的 JAX 指南", "author": "JAX 知识库作者", "source": False, "pages": "中文页面",
              "script": "cjk", "search": "jieba", "index_order": "pinyin", "glossary": "chinese"},
}
language = next(iter(kb_languages))
locale_dirs = ["locales/"]  # relative to the source directory
gettext_compact = False
gettext_uuid = False
gettext_location = True

# --- HTML -------------------------------------------------------------------------------------
html_theme = "sphinx_book_theme"
html_static_path = [str(DOCS / "_static")]
html_css_files = ["kb.css"]
html_js_files = ["kb.js"]
html_favicon = str(DOCS / "_static" / "kb-favicon.svg")
html_search_scorer = str(DOCS / "_static" / "kb-scorer.js")  # page titles rank first
html_theme_options = {
    "show_toc_level": 2,
    "use_download_button": True,
    "home_page_in_toc": True,
    # The language switch sits with the page's own buttons, on every page.
    "article_header_end": ["kb-lang-switch.html", "article-header-buttons.html"],
}
html_context = {"default_mode": "auto"}  # the theme logs a console error without it
# Absolute URLs for hreflang, og:url and the sitemap; relative ones when unset.
html_baseurl = os.environ.get("KB_BASE_URL", "")
html_last_updated_fmt = None
# The GitHub repository the site is published from: each page with code then offers "Open in Colab"
# (kb.notebooks: the docs workflow pushes the notebooks to the branch kb_notebooks_branch). Unset:
# the theme's repository_url, if set; neither: no Colab link.
kb_repo_url = os.environ.get("KB_REPO_URL", "")

# --- Markdown pages and llms.txt (kb.markdown, with sphinx-markdown-builder's translator) --------
# No _sources/ (English MyST whose code cells are :load: lines, on every language's site): the
# download menu offers each page's Markdown, in its language, in their place.
html_copy_source = False

# --- Sitemap, Open Graph, 404 (maintained extensions; kb fills in what differs per language) ---
# A sitemap needs absolute addresses, so it is written only when KB_BASE_URL is set (a deployment);
# a local build says nothing about it rather than writing an invalid one.
sitemap_url_scheme = "{lang}{link}"  # the builds are the sibling folders en/, zh_CN/
sitemap_locales = list(kb_languages)  # hreflang alternates: en, zh-CN
if not html_baseurl:
    suppress_warnings = ["sitemap.configuration"]
ogp_type = "article"
ogp_social_cards = {"enable": False}  # cards are PNGs drawn with one Latin font: no Chinese
# notfound_urls_prefix and notfound_context are set per language by kb.notfound;
# ogp_site_name and the og:locale tags by kb.page_meta.

# Copy only the code: of a cell, never its output; of a `>>>` example (a pycon block, kb.examples),
# the lines that start with a prompt, without the prompt, and none of the lines it prints.
copybutton_selector = "div.cell_input div.highlight pre, div.highlight-pycon div.highlight pre"
copybutton_prompt_text = r">>> |\.\.\. "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True
copybutton_exclude = ".linenos"

# --- Checks -----------------------------------------------------------------------------------
nitpicky = True

# --- External links: `nox -s links` (Sphinx's linkcheck builder, every language) ----------------
# Every http(s) link of a page is fetched; a 404 or any other error, a missing #anchor, a timeout
# or a redirect not allowed below fails the run. tests/test_linkcheck.py runs these same settings
# against a loopback server. Names and meanings: sphinx/builders/linkcheck.py of the pinned Sphinx.
linkcheck_timeout = 20  # seconds for one request
# A link counts as broken only when it fails this many times in a row (a refused connection, a
# 404 or 500, a timeout: Sphinx retries only what it reports as broken, hence the next line). A
# 503 (the server's outage) is reported as ignored, not as broken.
linkcheck_retries = 3
linkcheck_report_timeouts_as_broken = True
# A host that answers 429 is asked again after its Retry-After; without one, after 60 s, then
# twice as long each time up to this many seconds, after which the link is broken.
linkcheck_rate_limit_timeout = 300.0
linkcheck_workers = 5  # requests in flight at once, over all hosts
# #anchor: the page's HTML must hold an element with that id (or an <a name>). GitHub builds
# its anchors in the browser (#L10 lines, user-content- headings), so there only the page is checked.
linkcheck_anchors = True
linkcheck_anchors_ignore_for_url = [r"https://github\.com/"]
# A redirect fails unless a pair here allows it (from-regex: to-regex, both matched from the
# start): update the link to where it leads. A site's home page may send readers anywhere on it
# (Read the Docs' / to /en/latest/); a page that moved is a link to fix, not a redirect to allow.
linkcheck_allowed_redirects = {r"https?://[^/?#]+/?$": r"https?://"}
# Regexes of links never fetched: none. A host that refuses the checker (403 to every client
# that is not a browser) would go here, with the date it was seen and the response.
linkcheck_ignore = []
