"""kb.notebooks: a page's notebook as a reader runs it, in one Jupyter kernel, and where Colab opens it.

Every page with code offers its notebook (``kb.downloads``: MyST-NB's notebook of the page, each
program a code cell with the outputs of its record). A reader runs it in ONE kernel, top to
bottom, where the build ran each program in a process of its own or shared with programs of the
same settings (``kb.run.schedule``). ``prepare`` turns the page's notebook into one that runs so:

1. **Restarts where a program needs its own process.** JAX reads ``JAX_NUM_CPU_DEVICES``,
   ``JAX_PLATFORMS`` and the other ``JAX_*`` settings when it is imported, and XLA reads
   ``XLA_FLAGS`` when the backend starts: a cell that sets them after an earlier cell imported JAX
   changes nothing (``performance/meas_startup_order`` shows it). ``restarts`` walks the code cells
   with the kernel's state, using the same marks the scheduler reads (``kb.run.snippet``,
   ``kb.run.schedule.batch_group``):

   - a program that needs a process of its own (``batch_group`` is None: it changes JAX's
     environment or platform after its opening lines, uses ``multiprocessing``, or says
     ``# Runs in a fresh process: <reason>``) gets a fresh kernel, unless no program ran before it;
   - a program whose opening lines set its process's settings (``os.environ.setdefault(
     "JAX_NUM_CPU_DEVICES", "8")`` before ``import jax``) gets a fresh kernel unless the kernel
     is new or was started with the same settings;
   - a program that starts JAX with no settings gets a fresh kernel after one of the two above
     (the kernel holds 8 CPU devices, or a changed configuration);
   - a program that changes what every later program in the process inherits (``LEAVES_STATE``:
     ``jax.config.update``, PyTorch's default dtype or device; the build's shared worker puts
     these back between programs, a kernel does not) counts as one that needed its own process:
     the next program that imports JAX or PyTorch gets a fresh kernel;
   - programs that import neither (NumPy, pip in a child process) run in whatever kernel there is,
     and a PyTorch program does not mind the kernel's JAX settings.

   There, the notebook says so twice, in the page's language: a markdown cell before the program
   (restart the kernel, Colab: *Runtime > Restart session*, then run on from here; and why) and a
   comment line above the program; and the cell's metadata holds ``kb.restart`` (the reason, and
   ``lines``: how many lines the comment moved the program down),
   which ``tools/notebooks.py`` (``nox -s notebooks``) follows by starting a fresh kernel there,
   as the reader is told to. The program itself is unchanged: the build's record is its output.
   Setting the variables "in a way that works in a kernel" is not possible for these: JAX offers
   no way to start its backends again in a process, so a restart is the one honest answer.
2. **A first code cell that installs the versions the page was built with**, on Colab only (the
   cell asks ``importlib.util.find_spec("google.colab")``; elsewhere it does nothing, and the
   reader installs ``requirements.txt``): the runtime pins of ``requirements.txt`` (the section
   "What the pages teach", above the site builder's) of the packages the notebook's programs
   import (``RUNTIME_IMPORTS``), ``jax`` with the ``tpu`` extra on a TPU runtime and ``cuda13``
   on a GPU runtime (the same plugin as ``requirements-gpu.txt``). Before it, a markdown cell says
   how to pick a TPU or GPU runtime, that every program also runs on the CPU, and what the restart
   notes mean.
3. **Open in Colab.** Colab opens a notebook from a public GitHub repository only
   (``https://colab.research.google.com/github/<owner>/<repo>/blob/<branch>/<path>``); it cannot
   open one from an arbitrary URL such as the site's own ``_kb/notebooks/``. The notebooks are
   built from the records (their outputs), so they are not committed to ``main``; the site is
   published by ``actions/deploy-pages`` from an artifact, not from a ``gh-pages`` branch, so no
   branch holds the built site either. The docs workflow therefore pushes the built notebooks,
   both languages, to a branch of their own, ``NOTEBOOKS_BRANCH`` (``colab-notebooks``, one
   commit replaced on every publish, so the branch never grows), as
   ``<language>/<page>.ipynb``; ``colab_url`` links there. That is the same notebook as the
   page's ``.ipynb`` download. The link is made only when the site names a GitHub repository:
   ``kb_repo_url`` (``KB_REPO_URL``, which the docs workflow sets) or, failing that, the theme's
   ``repository_url``; without one, or for a repository not on GitHub, there is no link rather
   than a broken one.

Why our own code: the restart policy follows this project's own marks, and MyST-NB writes the
notebook of a page but knows nothing of kernels, Colab or pins.
"""

from __future__ import annotations

import re
from pathlib import Path

from .run.schedule import batch_group
from .run.snippet import imports, starts_jax

NOTEBOOKS_BRANCH = "colab-notebooks"
COLAB = "https://colab.research.google.com/github"
# The distributions a notebook installs on Colab for each top-level import of its programs.
RUNTIME_IMPORTS = {
    "jax": ("jax", "jaxlib", "flatbuffers", "rich"),  # jax.export and visualize_array_sharding need the last two
    "flax": ("flax",), "optax": ("optax",), "torch": ("torch",), "triton": ("triton",),
    "numpy": ("numpy",), "scipy": ("scipy",), "matplotlib": ("matplotlib",), "sklearn": ("scikit-learn",),
    "grain": ("grain",), "orbax": ("orbax-checkpoint",), "transformers": ("transformers",),
    "safetensors": ("safetensors",), "absl": ("absl-py",), "packaging": ("packaging",), "rich": ("rich",),
}
NEW, OWN = "new", "own"  # kernel states; otherwise the settings tuple it was started with
# Calls that change the process for every later program: JAX's configuration (x64, explain cache
# misses, no tracing), PyTorch's default dtype and device. The build's shared worker puts them back
# between programs (kb.run.batch); a kernel keeps them.
LEAVES_STATE = re.compile(r"\bconfig\.update\(|\btorch\.set_default_(?:dtype|device)\(")


def leaves_state(source: str) -> bool:
    """Whether a program changes process-wide settings that later programs in its kernel inherit.

    >>> leaves_state('jax.config.update("jax_enable_x64", True)\\n'), leaves_state("torch.set_default_dtype(torch.float64)\\n")
    (True, True)
    >>> leaves_state("x = 1  # config.update( in a comment\\n")
    False
    """
    return bool(LEAVES_STATE.search("\n".join(line.partition("#")[0] for line in source.splitlines())))


def restarts(sources: list[str]) -> list[tuple[str, tuple[tuple[str, str], ...]] | None]:
    """For each program, in order: None (runs in the kernel as it is) or (why, settings) where the
    kernel must be restarted before it. ``why`` is ``own`` (it needs a process of its own),
    ``settings`` (its opening lines set ``settings``), ``defaults`` (the kernel was started with
    ``settings`` and this one expects JAX's defaults) or ``changed`` (an earlier program that needed
    a process of its own ran in this kernel).

    >>> eight = 'import os\\nos.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")\\nimport jax\\n'
    >>> restarts(["import jax\\n", eight, eight, "import torch\\n", "import jax\\n"])
    [None, ('settings', (('JAX_NUM_CPU_DEVICES', '8'),)), None, None, ('defaults', (('JAX_NUM_CPU_DEVICES', '8'),))]
    >>> restarts([eight, "import resource  # Runs in a fresh process: peak memory\\n", "import jax\\n"])
    [None, ('own', ()), ('changed', ())]
    >>> restarts(["import resource  # Runs in a fresh process: peak memory\\n", "import numpy\\n"])
    [None, None]
    >>> restarts(['import jax\\njax.config.update("jax_enable_x64", True)\\n', "import torch\\n", "import jax\\n"])
    [None, ('changed', ()), None]
    """
    state: object = NEW
    plan: list[tuple[str, tuple[tuple[str, str], ...]] | None] = []
    for source in sources:
        group = batch_group(source)
        if group is None:
            plan.append(None if state == NEW else (OWN, ()))
            state = OWN
        elif group:
            plan.append(None if state in (NEW, group) else ("settings", group))
            state = group
        elif starts_jax(source):
            plan.append(None if state in (NEW, ()) else ("changed", ()) if state == OWN else ("defaults", state))
            state = ()
        elif "torch" in imports(source):
            plan.append(("changed", ()) if state == OWN else None)
            state = NEW if state == OWN else state
        else:
            plan.append(None)
        if leaves_state(source):
            state = OWN
    return plan


def runtime_pins(requirements: Path) -> dict[str, str]:
    """The pins of ``requirements.txt`` above the site builder's section: {distribution: version}.

    >>> pins = runtime_pins(Path(__file__).parents[3] / "requirements.txt")
    >>> "jax" in pins and "flax" in pins and "sphinx" not in pins
    True
    """
    pins = {}
    for line in requirements.read_text(encoding="utf-8").splitlines():
        if line.startswith("# The site builder"):
            break
        found = re.match(r"^([A-Za-z0-9_.\-]+)==([^\s;#]+)", line)
        if found:
            pins[found[1].lower()] = found[2]
    return pins


def colab_packages(sources: list[str], pins: dict[str, str]) -> list[str]:
    """The ``name==version`` requirements the notebook's programs need, jax first (with the
    placeholder ``{jax_extra}`` that the install cell fills in for a TPU or GPU runtime).

    >>> colab_packages(["import jax\\nfrom flax import nnx\\n", "import os\\n"], {"jax": "1", "jaxlib": "1", "flax": "2"})
    ['jax{jax_extra}==1', 'jaxlib==1', 'flax==2']
    """
    wanted: list[str] = []
    for source in sources:
        for name in sorted(imports(source)):
            wanted += [d for d in RUNTIME_IMPORTS.get(name, ()) if d in pins and d not in wanted]
    wanted.sort(key=lambda d: (d not in ("jax", "jaxlib"), d != "jax"))
    return [f"{d}{'{jax_extra}' if d == 'jax' else ''}=={pins[d]}" for d in wanted]


def install_source(packages: list[str], comment: str) -> str:
    """The install cell: on Colab only, the pinned packages; ``jax`` with the runtime's extra."""
    lines = [f"# {line}" for line in comment.splitlines()]
    lines += [
        "import glob, importlib.util, shutil",
        "",
        'if importlib.util.find_spec("google.colab"):',
        '    tpu = glob.glob("/dev/accel*") or glob.glob("/dev/vfio/[0-9]*")',
        '    jax_extra = "[tpu]" if tpu else "[cuda13]" if shutil.which("nvidia-smi") else ""',
    ]
    if packages:
        lines.append("    %pip install -q " + " ".join(f'"{p}"' for p in packages))
    else:
        lines.append("    pass  # this page's programs need nothing beyond what Colab has")
    return "\n".join(lines) + "\n"


def _cell(kind: str, source: str, ident: str, **metadata) -> dict:
    cell = {"cell_type": kind, "id": ident, "metadata": dict(metadata), "source": source}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def prepare(data: dict, pins: dict[str, str], words: dict[str, str]) -> dict:
    """The page's notebook (nbformat 4 JSON) as a reader runs it: the runtime note and the install
    cell first, a restart note before each program that needs a fresh kernel (``restarts``).

    ``words`` are the page language's sentences (``kb.downloads`` takes them from the catalogue):
    ``runtime`` (markdown, with ``{packages}``), ``install`` (the install cell's comment),
    ``restart`` (markdown, with ``{reason}``), ``comment`` (the program's first line, with
    ``{reason}``), ``separator`` (between two packages) and the reasons ``own``, ``changed``, ``settings`` and ``defaults`` (the last two
    with ``{settings}``)."""
    cells = data["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    sources = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in code]
    packages = colab_packages(sources, pins)
    listed = words.get("separator", ", ").join(f"`{p.replace('{jax_extra}', '')}`" for p in packages)
    out = [_cell("markdown", words["runtime"].format(packages=listed or "-"), "kb-runtime", kb={"added": "runtime"}),
           _cell("code", install_source(packages, words["install"]), "kb-install", kb={"added": "install"})]
    plan = dict(zip(map(id, code), restarts(sources)))
    for cell in cells:
        step = plan.get(id(cell))
        if step is not None:
            why, settings = step
            shown = ", ".join(f"{k}={v}" for k, v in settings) or "-"
            reason = words[why].format(settings=shown)
            out.append(_cell("markdown", words["restart"].format(reason=reason), f"kb-restart-{len(out)}",
                             kb={"added": "restart"}))
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            comment = words["comment"].format(reason=reason)
            # ``lines``: how many lines the program moved down (its tracebacks' line numbers).
            cell = {**cell, "source": comment + "\n" + source,
                    "metadata": {**cell["metadata"], "kb": {"restart": why, "lines": comment.count("\n") + 1}}}
        out.append(cell)
    return {**data, "cells": out}


def github_repository(url: str) -> str | None:
    """``owner/name`` of a GitHub repository's URL, else None (Colab opens GitHub only).

    >>> github_repository("https://github.com/jax-kb/site.git"), github_repository("https://gitlab.com/a/b")
    ('jax-kb/site', None)
    """
    found = re.fullmatch(r"https://github\.com/([A-Za-z0-9_.\-]+)/([A-Za-z0-9_.\-]+?)(?:\.git)?/?", url.strip())
    return f"{found[1]}/{found[2]}" if found else None


def colab_url(repository_url: str, language: str, docname: str, branch: str = NOTEBOOKS_BRANCH) -> str | None:
    """Where Colab opens a page's notebook in one language, or None without a GitHub repository.

    >>> colab_url("https://github.com/jax-kb/site", "zh_CN", "core/jit")
    'https://colab.research.google.com/github/jax-kb/site/blob/colab-notebooks/zh_CN/core/jit.ipynb'
    >>> colab_url("", "en", "core/jit") is None
    True
    """
    repository = github_repository(repository_url) if repository_url else None
    return f"{COLAB}/{repository}/blob/{branch}/{language}/{docname}.ipynb" if repository else None

