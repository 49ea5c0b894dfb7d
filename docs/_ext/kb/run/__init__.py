"""kb.run: the site's run core, free of Sphinx, docutils and MyST-NB.

What runs a snippet, and what a run's output means, independent of how a page shows it: the
build (``kb.execution``), the shards (``tools/shards.py``), the canary, the precision check and a
machine pass (``tools/machine/report.py``, on a TPU VM or a GPU box with nothing but ``python3``)
use it alike. Which pages there are is the caller's to say (the build asks Sphinx); nothing here
imports a module above it. From the top down:

- ``schedule``: the one scheduler and its device policy: which programs share a process, how many
  run at once on this platform, timing programs last and alone, within a deadline.
- ``plan``: which snippets each page loads, each snippet's job and pages, read from the page
  sources without Sphinx (the pages are the caller's list); one digest per snippet.
- ``runner``: one program in a fresh process, as a reader runs it; shards balanced by earlier seconds.
- ``batch``: many programs one after another in one shared process, each in a fresh ``__main__``
  with the process's state restored between them.
- ``store``: what a run produced (``RunResult``) and its record (``Record``, ``record``), keyed by
  what decides the result, written atomically; why a record does not count; records gathered from shards.
- ``process``: the process a snippet runs in (the child script, deprecations as errors, the
  reader's environment) and the runner's version, part of every record's key.
- ``platforms``: one row per JAX platform (exclusive or shared, its plugins, device names,
  emulated precision, its pass); this machine's description.
- ``snippet``: what a program declares about itself (timings, CPU by design, a fresh process,
  whether it starts JAX, its opening settings).
- ``noise``: messages a platform's runtime prints whatever the program does, each with the reason
  it is harmless; a run records them and is not failed by them.
- ``child``: the child script (a script: the runner starts it by its path, and ``kb.run.batch``
  loads it by its path): a snippet run as ``python SNIPPET``, its figures as SVG, a note of what it
  ran with.
- ``precision``: an accelerator's default matmul precision (one bfloat16 pass, or TF32) emulated
  in the CPU's lowering, for ``nox -s precision`` (``tools/precision_check.py``).

``tests/test_kb_run.py`` imports this package with Sphinx, docutils and MyST-NB blocked.
"""
