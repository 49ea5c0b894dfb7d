"""Run one snippet as a reader runs it, and note what a page needs beside its stdout.

    python -W error::DeprecationWarning ... run_snippet.py SNIPPET NAME NOTES

This file is the child process of ``kb.runner`` (it is a script, not part of the kb package's
import graph, and uses only the standard library until the snippet imports more). It runs the
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

stdout and stderr are the parent's files: everything the program writes to them, its child
processes and C++ libraries included, lands there in the order it was written. A figure's place is
the size of the stdout file when ``plt.show()`` ran.
"""

import datetime
import json
import linecache
import os
import platform
import sys
import traceback
import types

SNIPPET, NAME, NOTES = sys.argv[1:4]
FIGURES = []
PACKAGES = ("jax", "jaxlib", "flax", "optax", "torch")


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


def _ran_with():
    packages = {}
    for name in PACKAGES:
        if name in sys.modules:
            from importlib.metadata import version

            packages[name] = version(name)
    devices = []
    bridge = sys.modules.get("jax._src.xla_bridge")
    if bridge is not None and getattr(bridge, "_backends", None):  # only backends the program started
        import jax

        default = jax.default_backend()
        devices = [{"backend": default, "count": jax.device_count(), "kind": jax.devices()[0].device_kind}]
    return {"python": platform.python_version(), "packages": packages, "devices": devices,
            "date": datetime.date.today().isoformat(),
            "machine": f"{platform.system()} {platform.machine()}", "cpu_count": os.cpu_count()}


def main():
    with open(SNIPPET, encoding="utf-8") as f:
        source = f.read()
    lines = source.splitlines(keepends=True)
    linecache.cache[NAME] = (len(source), None, lines, NAME)
    sys.argv = [SNIPPET]
    sys.path[0] = os.path.dirname(os.path.abspath(SNIPPET))  # as `python SNIPPET` sets it
    if "matplotlib" in source:
        _use_svg_backend()
    notes = {"error_line": None}
    code = 0
    try:
        compiled = compile(source, NAME, "exec", dont_inherit=True)
        # A real __main__ module, as `python SNIPPET` has (pickle finds the program's functions there).
        module = types.ModuleType("__main__")
        module.__file__ = os.path.abspath(SNIPPET)
        module.__builtins__ = __builtins__
        sys.modules["__main__"] = module
        exec(compiled, module.__dict__)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        if not isinstance(stop.code, int) and stop.code is not None:
            print(stop.code, file=sys.stderr)
    except BaseException as error:  # noqa: BLE001 (reported like the interpreter does, then noted)
        traceback.print_exc()
        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == NAME]
        notes["error_line"] = frames[-1].lineno if frames else None
        code = 1
    sys.stdout.flush()
    notes["figures"] = FIGURES
    try:
        notes["ran_with"] = _ran_with()
    except Exception as error:  # noqa: BLE001 (provenance must not hide the program's own result)
        notes["ran_with"] = {"error": repr(error)}
    with open(NOTES + ".part", "w", encoding="utf-8") as f:
        json.dump(notes, f)
    os.replace(NOTES + ".part", NOTES)
    sys.stdout.flush()
    sys.stderr.flush()
    return code


if __name__ == "__main__":
    sys.exit(main())
