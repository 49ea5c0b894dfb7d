"""kb.run: the site's run core, free of Sphinx, docutils and MyST-NB.

What runs a snippet, and what a run's output means, independent of how a page shows it: the
build (``kb.execution``), the shards (``tools/shards.py``) and a machine's pass
(``tools/machine_report.py``, on a TPU VM or a GPU box with nothing but ``python3``) use it alike.
Which pages there are is the caller's to say (the build asks Sphinx); nothing here imports a
module above it.

- ``process``: the process a snippet runs in (the child script, deprecations as errors, the
  reader's environment) and the runner's version, part of every record's key.
- ``child``: the child script itself (a script: the runner starts it by its path, and
  ``kb.run.batch`` imports it from its folder): a snippet run as ``python SNIPPET``, its figures
  as SVG, a note of what it ran with; and the preloaded server that forks it.
- ``snippet``: what a program declares about itself (timings, CPU by design, whether it starts JAX).
- ``noise``: messages a platform's runtime prints whatever the program does, each with the reason
  it is harmless; a run records them and is not failed by them.
- ``store``: one JSON record per run, keyed by what decides the result, written atomically; why a
  record does not count; records gathered from shards.
- ``preload``: preloaded starts, each snippet forked from a server that already ran its opening
  imports (Linux, ``PRELOADS``).
- ``runner``: the pool: each snippet alone in a fresh process, as a reader runs it, one pool over
  the cores, timing snippets alone after it; shards balanced by earlier seconds.
- ``policy``: which programs may run at the same time on a machine (an exclusive accelerator is
  held by one program at a time).
- ``plan``: which snippets each page loads and which pages load each snippet, read from the page
  sources without Sphinx; one digest per snippet.
- ``batch``: many programs one after another in one process that holds the device, each in a
  fresh ``__main__`` with the process's state restored between them (a TPU pass).
- ``precision``: an accelerator's default matmul precision (one bfloat16 pass, or TF32) emulated
  in the CPU's lowering, for ``nox -s precision`` (``tools/precision_check.py``).

``tests/test_kb_run.py`` imports this package with Sphinx, docutils and MyST-NB blocked.
"""
