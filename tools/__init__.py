"""Build, translation and benchmark tooling of the knowledge base (not tests; tests/ uses it).

- ``tools.interpreter``: the Python 3.12 nox makes the environment with (PATH, pyenv).
- ``tools.site``: paths, the language table (from ``conf.py``), ``sphinx_command`` (the one way
  sphinx-build is run), ``source_pages`` / ``built_pages``, internal-link checking.
- ``tools.catalogs``: translation catalogues: completeness, markup, normalising, and the kb
  interface catalogue.
- ``tools.browser``: ``serve()`` a built site on 127.0.0.1 and ``chromium()`` (Debian's, driven by
  Playwright) for the browser tests and ``bench_site``.
- Scripts (``python -m tools.<name>``, run by nox): ``i18n_report``, ``bench_build``, ``bench_site``.
"""
