"""Run one snippet as a reader runs it, and note what a page needs beside its stdout.

    python -W error::DeprecationWarning ... child.py SNIPPET NAME NOTES
    python -W error::DeprecationWarning ... child.py --serve PRELUDE_JSON

This file is the child process of ``kb.run.runner`` (``kb.run.process.CHILD``; it is a script, not
part of the kb package's import graph, and uses only the standard library until the snippet
imports more; ``kb.run.batch`` imports it by path to run many programs in one process). It runs the
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

**Serving** (``--serve``, Linux): the process runs a *prelude*, the opening import statements of
a group of snippets (and the ``os.environ`` settings before them) that
``kb.run.preload.prelude`` read from their source, and then forks one child per request. A child is a new process whose state is
that of ``python SNIPPET`` after those statements ran: it takes its own session, standard input
from ``/dev/null``, its own stdout and stderr files and working directory, and runs the whole
program from its first line (the prelude's imports are then already done; its ``os.environ``
settings already hold) through ``main``, then ends as an interpreter ends (``sys.exit``: atexit
handlers and flushes run). A request can also spawn a server for a longer prelude, a child that
runs only the statements it adds (``serve``). Requests come one JSON object a line; replies go,
one line each, to the descriptor that was stdout when the first server started (``ready``,
``failed``, ``started ID PID``, ``ended ID CODE``, ``gone``); a prelude's own stdout and stderr go
to its server's log file: a prelude that writes anything (a warning at import) answers
``failed``, so those snippets run cold and the warning lands in their records as it would for a
reader. The server itself starts no thread and touches no device (JAX starts its backend in the
child, at the program's first computation), so a child inherits no half-held lock; the one
thread a prelude starts (OpenBLAS's pool, when NumPy is imported) is shut down before each fork
by OpenBLAS's own fork handler and starts again when next needed. Beyond the prelude's modules,
a child has only ``select`` in ``sys.modules`` that a cold start would not. Only Linux serves
(``kb.run.preload.PRELOADS``): macOS does not support forking a process that has loaded its
system frameworks, and there every snippet runs cold.
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


def main(snippet, name, notes_path):
    with open(snippet, encoding="utf-8") as f:
        source = f.read()
    lines = source.splitlines(keepends=True)
    linecache.cache[name] = (len(source), None, lines, name)
    sys.argv = [snippet]
    sys.path[0] = os.path.dirname(os.path.abspath(snippet))  # as `python SNIPPET` sets it
    if "matplotlib" in source:
        _use_svg_backend()
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


def _read_requests(buffer):
    """Complete request lines in ``buffer``, and what is left of it."""
    *lines, rest = buffer.split(b"\n")
    return [json.loads(line) for line in lines if line.strip()], rest


def _open_as(fd, path, flags):
    opened = os.open(path, flags, 0o644)
    if opened != fd:  # it is ``fd`` itself when that was the lowest one free
        os.dup2(opened, fd)
        os.close(opened)
    # os.open makes a descriptor that a program started from the snippet does not get (PEP 446);
    # 0, 1 and 2 must be inherited, as in a reader's process (nvcc fails without a stdin).
    os.set_inheritable(fd, True)


def serve(prelude, reply, requests=0, ident="0"):
    """Run ``prelude``, then fork a child per request; return the code the process ends with.

    A request is a snippet to run, a server to spawn (``"spawn"``: a child that runs only the
    statements it adds to this prelude and then serves in its turn, so that each import of a
    family of preludes is done once in all), a request for a server below this one (``"via"``: the
    ids of the servers on the way, which pass it on), or ``"close"`` (no more requests: finish
    the children, then end). Every server of a family writes its replies, one short line each, to
    the one pipe the runner reads (writes under the pipe's buffer size do not interleave).
    """
    import select

    try:
        namespace = {"__name__": "__kb_prelude__"}
        for statement in prelude:
            exec(compile(statement, "<kb-prelude>", "exec", dont_inherit=True), namespace)
        sys.stdout.flush()
        sys.stderr.flush()
        clean = os.fstat(2).st_size == 0
    except BaseException:  # noqa: BLE001 (the snippets then run cold and meet the error themselves)
        traceback.print_exc()
        clean = False
    if not clean:
        os.write(reply, f"failed {ident} 0\n".encode())
        return 1
    os.write(reply, f"ready {ident} 0\n".encode())
    children, servers, buffer, reading = {}, {}, b"", True
    while reading or children:
        if reading and select.select([requests], [], [], 0.02 if children else None)[0]:
            chunk = os.read(requests, 65536)
            reading = bool(chunk)
            batch, buffer = _read_requests(buffer + chunk)
            for request in batch:
                if request.get("via"):
                    first, *rest = request["via"]
                    try:
                        os.write(servers[first], (json.dumps({**request, "via": rest}) + "\n").encode())
                    except (KeyError, OSError):  # that server has ended
                        os.write(reply, f"gone {request['id']} 0\n".encode())
                    continue
                if request.get("close"):
                    reading = False
                    continue
                spawn = "spawn" in request
                if spawn:
                    below, above = os.pipe()
                pid = os.fork()
                if pid == 0:
                    os.setsid()
                    for fd in (requests, *servers.values()):
                        os.close(fd)
                    if spawn:  # a server for a longer prelude
                        os.close(above)
                        _open_as(2, request["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
                        os.dup2(2, 1)
                        return serve(request["spawn"], reply, below, request["id"])
                    # A snippet: a reader's process from here on.
                    os.close(reply)
                    _open_as(0, os.devnull, os.O_RDONLY)
                    _open_as(1, request["stdout"], os.O_WRONLY | os.O_APPEND | os.O_CREAT)
                    _open_as(2, request["stderr"], os.O_WRONLY | os.O_APPEND | os.O_CREAT)
                    os.chdir(request["cwd"])
                    return main(request["snippet"], request["name"], request["notes"])
                if spawn:
                    os.close(below)
                    servers[request["id"]] = above
                children[pid] = request["id"]
                os.write(reply, f"started {request['id']} {pid}\n".encode())
            if not reading:  # no more requests here: none for the servers below either
                for fd in servers.values():
                    os.close(fd)
                servers.clear()
        elif not reading:
            select.select([], [], [], 0.02)  # children left to wait for
        while children:
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                break
            done = children.pop(pid)
            if done in servers:
                os.close(servers.pop(done))
            os.write(reply, f"ended {done} {os.waitstatus_to_exitcode(status)}\n".encode())
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "--serve":
        replies = os.dup(1)
        os.dup2(2, 1)  # what a prelude prints goes to the server's stderr file, not into the replies
        sys.path[0] = os.getcwd()  # an empty folder (kb.run.preload checks that no snippet folder shadows a prelude's module)
        sys.exit(serve(json.loads(sys.argv[2]), replies))
    sys.exit(main(*sys.argv[1:4]))
