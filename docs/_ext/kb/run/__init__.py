"""kb.run: the site's run core, free of Sphinx, docutils and MyST-NB.

What runs a snippet, and what a run's output means, independent of how a page shows it: the
build (``kb.execution``), the shards (``tools/run_snippets.py``) and a machine's pass
(``tools/machine_report.py``, on a TPU VM or a GPU box with nothing but ``python3``) use it alike.

- ``noise``: messages a platform's runtime prints whatever the program does, each with the reason
  it is harmless; a run records them and is not failed by them.
- ``policy``: which programs may run at the same time on a machine (an exclusive accelerator is
  held by one program at a time).
- ``plan``: which snippets each page loads and which pages load each snippet, read from the page
  sources without Sphinx; one digest per snippet.
- ``batch``: many programs one after another in one process that holds the device, each in a
  fresh ``__main__`` with the process's state restored between them (a TPU pass).

``tests/test_kb_run.py`` imports this package with Sphinx, docutils and MyST-NB blocked.
"""
