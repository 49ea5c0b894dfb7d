"""Run one snippet as a reader runs it, and note what a page needs beside its stdout.

    python -W error::DeprecationWarning ... child.py [--precision MODE] SNIPPET NAME NOTES

This file is the child process of ``kb.run.runner`` (``kb.run.process.CHILD``; it is a script, not
part of the kb package's import graph, and uses only the standard library until the snippet
imports more; ``kb.run.batch`` loads it by path to run many programs in one process). It runs the
snippet exactly as ``python SNIPPET`` would, with three additions that change nothing the program
computes or prints:

1. The code is compiled under ``NAME`` (``snippets/core/jit_x.py``), so tracebacks and JAX's error
   messages name the snippet and its line, not a temporary file (``linecache`` is primed so a
   traceback still quotes the line).
2. If the program uses matplotlib, its backend is a small one defined here: ``plt.show()`` writes
   each open figure as SVG with its words kept as text (``svg.fonttype: none``) and stable ids
   (``svg.hashsalt``), and notes where in stdout the figure came. Without this a figure would go
   nowhere, as in any script run without a screen.
3. On the way out it notes, in the JSON file ``NOTES``, the figures, the line of the snippet where
   an exception escaped, and what the program ran with: the versions of jax, jaxlib, flax, optax
   and torch it imported, the devices of the JAX backend it started (nothing is started for
   this: a program that never touched a device reports none), the machine and the date.
4. Its own frames are not the program's: once the program imports JAX, this folder is one of the
   paths JAX leaves out of the source locations it records (``jax.extend.source_info_util``), so
   a lowered or exported module holds the locations it holds under ``python SNIPPET`` (with this
   script's frames in them, a serialized module was 96 bytes longer in a shared process).

stdout and stderr are the parent's files: everything the program writes to them, its child
processes and C++ libraries included, lands there in the order it was written. A figure's place is
the size of the stdout file when ``plt.show()`` ran.

**Emulated precision** (``--precision MODE``, ``nox -s precision``): before the program runs,
``kb/run/precision.py`` (loaded by its path, under a private name, so that the program's
``sys.path`` stays a reader's) installs the emulation of an accelerator's default matmul
precision; a shared worker (``kb.run.batch``) installs it the same way, once, before its first program.
"""

import datetime
import json
import linecache
import os
import platform
import sys
import traceback
import types

FIGURES = []
PACKAGES = ("jax", "jaxlib", "flax", "optax", "torch")
HERE = os.path.dirname(os.path.abspath(__file__)) + os.sep  # this folder (kb/run/), whichever script runs


def _show(*args, **kwargs):
    import io

    import matplotlib.pyplot as plt

    for number in plt.get_fignums():
        figure = plt.figure(number)
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})  # same bytes each run
        sys.stdout.flush()
        width, height = figure.get_size_inches() * figure.dpi
        FIGURES.append({"offset": os.fstat(1).st_size, "svg": buffer.getvalue(),
                        "text": f"<Figure size {width:g}x{height:g} with {len(figure.axes)} Axes>"})
    plt.close("all")


def _use_svg_backend():
    import matplotlib
    from matplotlib.backend_bases import FigureManagerBase
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    backend = types.ModuleType("_kb_svg_backend")
    backend.FigureCanvas, backend.FigureManager, backend.show = FigureCanvasAgg, FigureManagerBase, _show
    sys.modules[backend.__name__] = backend
    matplotlib.use("module://_kb_svg_backend")
    matplotlib.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "kb-figures"})


def jax_started():
    """Whether a JAX backend was started in this process (asking JAX itself would start one)."""
    bridge = sys.modules.get("jax._src.xla_bridge")
    return bridge is not None and bool(getattr(bridge, "_backends", None))


def _ran_with():
    packages = {}
    for name in PACKAGES:
        if name in sys.modules:
            from importlib.metadata import version

            packages[name] = version(name)
    devices = []
    if jax_started():  # only backends the program started
        import jax

        default = jax.default_backend()
        devices = [{"backend": default, "count": jax.device_count(), "kind": jax.devices()[0].device_kind}]
    return {"python": platform.python_version(), "packages": packages, "devices": devices,
            "date": datetime.date.today().isoformat(),
            "machine": f"{platform.system()} {platform.machine()}", "cpu_count": os.cpu_count()}


class _HideOurFrames:
    """A finder that, once JAX's ``source_info_util`` is imported, excludes this folder from the
    program's source locations (4 above), and then leaves ``sys.meta_path``."""

    def find_spec(self, name, path=None, target=None):
        if name != "jax._src.source_info_util":
            return None
        import importlib.util

        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            module.register_exclusion(HERE)

        spec.loader.exec_module = exec_module
        return spec


def hide_our_frames():
    """Leave this folder out of JAX's source locations, now or when the program imports JAX."""
    imported = sys.modules.get("jax._src.source_info_util")
    if imported is not None:
        if HERE not in imported._exclude_paths:
            imported.register_exclusion(HERE)
    elif not any(isinstance(finder, _HideOurFrames) for finder in sys.meta_path):
        sys.meta_path.insert(0, _HideOurFrames())


def main(snippet, name, notes_path):
    with open(snippet, encoding="utf-8") as f:
        source = f.read()
    lines = source.splitlines(keepends=True)
    linecache.cache[name] = (len(source), None, lines, name)
    sys.argv = [snippet]
    sys.path[0] = os.path.dirname(os.path.abspath(snippet))  # as `python SNIPPET` sets it
    if "matplotlib" in source:
        _use_svg_backend()
    hide_our_frames()
    notes = {"error_line": None}
    code = 0
    try:
        compiled = compile(source, name, "exec", dont_inherit=True)
        # A real __main__ module, as `python SNIPPET` has (pickle finds the program's functions there).
        module = types.ModuleType("__main__")
        module.__file__ = os.path.abspath(snippet)
        module.__builtins__ = __builtins__
        sys.modules["__main__"] = module
        exec(compiled, module.__dict__)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        if not isinstance(stop.code, int) and stop.code is not None:
            print(stop.code, file=sys.stderr)
    except BaseException as error:  # noqa: BLE001 (reported like the interpreter does, then noted)
        traceback.print_exc()
        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == name]
        notes["error_line"] = frames[-1].lineno if frames else None
        code = 1
    sys.stdout.flush()
    notes["figures"] = FIGURES
    try:
        notes["ran_with"] = _ran_with()
    except Exception as error:  # noqa: BLE001 (provenance must not hide the program's own result)
        notes["ran_with"] = {"error": repr(error)}
    with open(notes_path + ".part", "w", encoding="utf-8") as f:
        json.dump(notes, f)
    os.replace(notes_path + ".part", notes_path)
    sys.stdout.flush()
    sys.stderr.flush()
    return code


def emulate(mode):
    """Install ``kb.run.precision``'s emulation of ``mode`` (loaded by path, under a private name)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_kb_precision", os.path.join(os.path.dirname(__file__), "precision.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.install(mode)


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if arguments[:1] == ["--precision"]:
        emulate(arguments[1])
        arguments = arguments[2:]
    sys.exit(main(*arguments[:3]))
