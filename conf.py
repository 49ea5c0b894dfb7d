"""Sphinx configuration for the JAX knowledge base (English source, Chinese via gettext).

Build with `nox -s docs`; the source directory is `docs/`, this file is used with `-c .`.
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

# Page kernels inherit this process's environment. Snippets that need several devices set
# JAX_NUM_CPU_DEVICES themselves before importing jax; giving every page kernel the same
# 8 emulated CPU devices means the setting also holds when another cell of the page
# imported jax first. It changes the CPU backend only; a GPU stays the default backend.
os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")
# Keep the kernels' output free of progress bars and colour codes from libraries.
os.environ.setdefault("TQDM_DISABLE", "1")

project = "JAX for PyTorch users"
author = "The JAX knowledge base authors"
copyright = "2026, " + author

extensions = [
    "myst_nb",
    "sphinx_design",
    "sphinx_copybutton",
    "kb_pipeline",
    "kb_reader",
]
templates_path = ["docs/_templates"]

exclude_patterns = ["_build", "_data", "_ext", "_root", "_templates", "locales", "**/.ipynb_checkpoints"]
source_suffix = {".md": "myst-nb"}
root_doc = "index"

# --- MyST -----------------------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath"]
myst_heading_anchors = 3

# --- Execution: every page runs at build time, once for both languages ---------------------
nb_execution_mode = "cache"
nb_execution_cache_path = str(ROOT / "_build" / ".jupyter_cache")
nb_execution_timeout = int(os.environ.get("KB_CELL_TIMEOUT", "300"))
nb_execution_raise_on_error = False  # kb_pipeline reports the page, snippet and line instead
nb_execution_show_tb = False  # kb_pipeline names snippet and line; the full traceback goes to reports/
nb_execution_in_temp = True
nb_execution_allow_errors = False
# Only `nox -s page` (a drafting aid) sets this; the site build executes every page.
nb_execution_excludepatterns = [p for p in os.environ.get("KB_EXCLUDE_EXECUTION", "").split(",") if p]
nb_output_stderr = "warn"  # anything a snippet prints to stderr (warnings!) fails the build
nb_merge_streams = True

# --- Languages --------------------------------------------------------------------------------
language = "en"
locale_dirs = ["locales/"]  # relative to docs/
gettext_compact = False
gettext_uuid = False
gettext_location = True

# --- HTML -------------------------------------------------------------------------------------
html_theme = "sphinx_book_theme"
html_title = "JAX for PyTorch users"
# Site titles of the translated builds (kb_pipeline picks the one for the build's language).
kb_html_titles = {"zh_CN": "写给 PyTorch 用户的 JAX 指南"}
html_static_path = ["docs/_static"]
html_css_files = ["kb.css"]
html_js_files = ["kb.js"]
html_favicon = "docs/_static/kb-favicon.svg"
html_search_scorer = str(ROOT / "docs" / "_static" / "kb-scorer.js")  # page titles rank first
html_theme_options = {
    "show_toc_level": 2,
    "use_download_button": True,
    "home_page_in_toc": True,
    # The language switch sits with the page's own buttons, on every page.
    "article_header_end": ["kb-lang-switch.html", "article-header-buttons.html"],
}
html_additional_pages = {"404": "kb-404.html"}
html_context = {"default_mode": "auto"}  # the theme logs a console error without it
# Absolute URLs for hreflang, og:url and the sitemap; relative ones when unset.
html_baseurl = os.environ.get("KB_BASE_URL", "")
html_last_updated_fmt = None

# Copy only the code of a cell, never its output.
copybutton_selector = "div.cell_input div.highlight pre"
copybutton_exclude = ".linenos, .gp, .go"

# --- Checks -----------------------------------------------------------------------------------
nitpicky = True
linkcheck_timeout = 15
linkcheck_retries = 1
