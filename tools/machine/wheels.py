"""The pinned stack for a machine that cannot reach a package index: download here, carry in pieces, install there.

    python tools/machine/wheels.py download [--out DIR] [--without NAME ...]   (here, with .nox/kb's Python)
    python tools/machine/wheels.py download --torch                          (here: the torch bundle, below)
    python3 tools/machine/wheels.py receive PIECE ...                        (there: one carried piece per call)
    python3 tools/machine/wheels.py install [--target DIR] [--bundle torch]  (there: reassemble, verify, install)

A lent TPU VM has its own Python 3.11 and jax 0.10.2, a package index of cp311 wheels, no network,
and calls that carry at most 64 MiB. The site's pins need Python 3.12 (jax 0.12 requires it), so a
pass on the pins (``bash tools/machine/tpu_pass.sh``) brings every wheel itself:

1. ``download`` (here) asks pip for every pin of ``requirements.txt`` that the programs import (the
   lines above its site-builder section, read by ``kb.notebooks.runtime_pins``), with ``jax[tpu]`` for libtpu,
   the notebook runner's nbclient and ipykernel (``RUNNER``, for the pass's ``--notebooks``), and
   everything they require, as CPython 3.12 manylinux x86_64 wheels, each dependency held to the
   version the build's own environment has (a constraint per installed distribution: the pass runs
   what the site's build ran). torch and triton are not in this bundle (``NOT_CARRIED``). It writes
   ``MANIFEST`` (each wheel's name, size and sha256), packs the wheels into one tar and cuts it into
   numbered pieces of at most ``PIECE`` bytes (``pinned.tar.000``, ...) in ``--out`` (default
   ``.whl-tpu/pinned/``, which git ignores), and prints the calls that carry them.
   ``download --torch`` makes a second bundle, ``.whl-tpu/torch/``: the pinned torch and triton
   wheels, the pure-Python packages torch requires that the first bundle lacks, and stand-ins for
   its NVIDIA libraries (``cuda_stubs``). The registry's torch 2.13.0 for Linux is the CUDA build; it does not
   import without its NVIDIA libraries (``libcudnn.so.9: cannot open shared object file``, checked
   on 2026-12-07), which take 2.7 GB, and no CPU build for Python 3.12 exists on the registry or on
   the lent VM (its ``/opt/wheels`` has torch 2.13.0+cpu for Python 3.11 only). triton (198 MB)
   comes too: without it, torch's FLOP counter writes a warning to stderr on import (a failure by the
   site's rule), and four programs run Triton's CPU interpreter.
2. ``receive`` (there) copies the carried pieces to ``/tmp/kb-pieces/<bundle>`` (the machine keeps
   ``/tmp`` between the calls of one sitting; the working tree is laid anew each call).
3. ``install`` (there) joins the pieces, checks the tar's sha256 and then every wheel's against the
   manifest (a piece missing or cut short is named), and installs them with pip from those files
   only (``--no-index --no-deps --target``, default ``/tmp/kb-pinned``) under the Python that runs
   it, which must be 3.12; it prints the versions it installed. The torch bundle's stand-in
   libraries go to ``<target>/kb-cuda-stubs/``, which ``tpu_pass.sh`` puts on ``LD_LIBRARY_PATH``.

Why our own code: pip downloads and installs; what it does not do is carry a resolved set across a
64 MiB limit and prove at the far end that every byte arrived.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PIECE = 52 * 2**20  # a call carries at most 64 MiB, the working tree (about 7.5 MiB) included
PIECES = Path("/tmp/kb-pieces")
NOT_CARRIED = re.compile(r"^(nvidia-|cuda-|torch$|triton$)")
# The notebook runner (tools/notebooks.py, the pass's --notebooks): pinned in requirements.txt's site-builder
# section, which runtime_pins does not read; with what they require, 31 wheels (13 MiB) beyond the programs'.
RUNNER = ("nbclient", "ipykernel")
PLATFORM_TAGS = ("manylinux_2_17_x86_64", "manylinux2014_x86_64", "manylinux_2_27_x86_64", "manylinux_2_28_x86_64",
                 "manylinux_2_31_x86_64", "manylinux_2_34_x86_64", "any")


def runtime_pins(requirements: Path) -> list[str]:
    r"""The pins the programs import: the lines of ``requirements`` above its site-builder section,
    jax with its ``tpu`` extra.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "r.txt").write_text("# x\njax==0.12.0.1\nnumpy==2.5.5  # y\n# The site builder\nsphinx==9.1.1\n")
    ...     runtime_pins(Path(d) / "r.txt")
    ['jax[tpu]==0.12.0.1', 'numpy==2.5.5']
    """
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))  # the one reader of that section, shared with the notebooks' install cell
    from kb.notebooks import runtime_pins as pins

    return [f"jax[tpu]=={version}" if name == "jax" else f"{name}=={version}" for name, version in pins(requirements).items()]


def carried(requirements: Path, installed: dict[str, str], without: list[str] = ()) -> list[str]:
    """What ``download`` asks pip for: the programs' pins (``runtime_pins``) and the notebook
    runner's (``RUNNER``, at the versions the build has), but for those ``NOT_CARRIED`` or ``without``.

    >>> pins = carried(ROOT / "requirements.txt", {"nbclient": "0.11.0", "ipykernel": "7.4.0"}, ["flax"])
    >>> pins[-2:], any(p.startswith(("flax", "torch")) for p in pins)
    (['nbclient==0.11.0', 'ipykernel==7.4.0'], False)
    """
    pins = runtime_pins(requirements) + [f"{name}=={installed[name]}" for name in RUNNER]
    return [p for p in pins if re.split(r"[\[=]", p)[0] not in without and not NOT_CARRIED.match(re.split(r"[\[=]", p)[0])]


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(2**20), b""):
            digest.update(block)
    return digest.hexdigest()


def cuda_stubs(out: Path) -> list[Path]:
    """Stand-ins for the NVIDIA libraries that the build environment's torch links, built here with gcc.

    Each has its library's soname and symbol version and defines every function of it that torch's
    own libraries call (not the C++ runtime's symbols some of them re-export). Each answers as the
    real libraries answer on a machine without an NVIDIA driver (this one; read through ctypes):
    error 35, ``cudaErrorInsufficientDriver``, with its message, a device count of 0, and the real
    versions from the version queries. torch then imports and runs on the CPU as on a reader's
    machine without a GPU: ``torch.cuda.is_available()`` is False and no CUDA code runs. Why our own
    code: no CPU build of torch 2.13.0 exists for Python 3.12 here or on the lent VM, and carrying
    the real libraries would take 2.7 GB, about 52 calls."""
    import ctypes

    import torch

    torch_lib = Path(torch.__file__).parent / "lib"
    site = torch_lib.parents[1]
    def dynsyms(lib: Path, defined: bool) -> list[tuple[str, str, str]]:
        text = subprocess.run(["readelf", "--dyn-syms", "-W", str(lib)], capture_output=True, text=True, check=True).stdout
        rows = [f for f in map(str.split, text.splitlines()) if len(f) >= 8 and f[0].endswith(":")]
        return [(f[7].split("@")[0], f[7].split("@")[-1] if "@" in f[7] else "", f[3]) for f in rows
                if (f[6] not in ("UND", "ABS")) == defined and (not defined or f[4] in ("GLOBAL", "WEAK"))]

    def needed(lib: Path) -> list[str]:
        text = subprocess.run(["readelf", "-d", str(lib)], capture_output=True, text=True, check=True).stdout
        return re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", text)

    ours = sorted(torch_lib.glob("*.so*"))
    real = {p.name: p for p in (site / "nvidia").rglob("*.so*")}
    called = {name for lib in ours for name, _, _ in dynsyms(lib, defined=False)}
    system = {name for lib in ("libstdc++.so.6", "libc.so.6", "libm.so.6", "libgcc_s.so.1")
              for name, _, _ in dynsyms(Path("/lib/x86_64-linux-gnu") / lib, defined=True)}
    def real_call(soname: str, name: str, *out: type) -> list[int]:  # a query's answer from the real library
        for dep in ("libcudart.so.13", "libcublas.so.13", "libcublasLt.so.13"):
            ctypes.CDLL(str(real[dep]), mode=ctypes.RTLD_GLOBAL)
        args = [t() for t in out]
        function = getattr(ctypes.CDLL(str(real[soname])), name)
        function.restype = ctypes.c_size_t
        answer = function(*map(ctypes.byref, args))
        return [a.value for a in args] if out else [answer]

    message = "CUDA driver version is insufficient for CUDA runtime version"
    special = {  # the functions whose answer is more than an error code, as the real ones give it
        "cudaGetDeviceCount": "int cudaGetDeviceCount(int *n) { *n = 0; return 35; }",
        "cudaRuntimeGetVersion": "int cudaRuntimeGetVersion(int *v) {{ *v = {}; return 0; }}",
        "cudaDriverGetVersion": "int cudaDriverGetVersion(int *v) { *v = 0; return 0; }",
        "cudaGetErrorString": f'const char *cudaGetErrorString(int e) {{ return "{message}"; }}',
        "cudaGetErrorName": 'const char *cudaGetErrorName(int e) { return "cudaErrorInsufficientDriver"; }',
        "cudaGetDriverEntryPointByVersion": "int cudaGetDriverEntryPointByVersion(const char *s, void **f, "
                                            "unsigned long long g, unsigned v, int *q) { *f = 0; return 35; }",
        "cudnnGetVersion": "unsigned long cudnnGetVersion(void) {{ return {}; }}",
        "cudnnGetCudartVersion": "unsigned long cudnnGetCudartVersion(void) {{ return {}; }}",
        "cublasLtGetVersion": "unsigned long cublasLtGetVersion(void) {{ return {}; }}",
        "ncclGetVersion": "int ncclGetVersion(int *v) {{ *v = {}; return 0; }}",
        "cuptiGetVersion": "int cuptiGetVersion(unsigned *v) {{ *v = {}; return 0; }}",
        "nvrtcVersion": "int nvrtcVersion(int *a, int *b) {{ *a = {}; *b = {}; return 0; }}",
        "cuptiGetResultString": f'int cuptiGetResultString(int r, const char **s) {{ *s = "{message}"; return 0; }}',
        **{n: f'const char *{n}() {{ return "{message}"; }}' for n in
           ("cudnnGetErrorString", "ncclGetErrorString", "ncclGetLastError", "nvrtcGetErrorString", "cusparseGetErrorString")},
    }
    queries = {"cudaRuntimeGetVersion": ("libcudart.so.13", ctypes.c_int), "cudnnGetVersion": ("libcudnn.so.9",),
               "cudnnGetCudartVersion": ("libcudnn.so.9",), "cublasLtGetVersion": ("libcublasLt.so.13",),
               "ncclGetVersion": ("libnccl.so.2", ctypes.c_int), "cuptiGetVersion": ("libcupti.so.13", ctypes.c_uint32),
               "nvrtcVersion": ("libnvrtc.so.13", ctypes.c_int, ctypes.c_int)}
    for name, (soname, *out_types) in queries.items():
        special[name] = special[name].format(*real_call(soname, name, *out_types))
    out.mkdir(parents=True, exist_ok=True)
    made = []
    for soname in sorted({n for lib in ours for n in needed(lib) if n in real}):
        symbols = dynsyms(real[soname], defined=True)
        versions = {v for _, v, _ in symbols if v}
        assert len(versions) <= 1, (soname, versions)
        funcs = sorted({n for n, _, kind in symbols if n in called and n not in system and kind in ("FUNC", "IFUNC")})
        assert not {n for n, _, kind in symbols if n in called and n not in system and kind == "OBJECT"}, soname
        with tempfile.TemporaryDirectory() as work:
            source, script = Path(work) / "stub.c", Path(work) / "stub.map"
            source.write_text("".join(special.get(n, f"int {n}(void) {{ return 35; }}") + "\n" for n in funcs), encoding="utf-8")
            listed = "".join(f"{n}; " for n in funcs)
            script.write_text(f"{''.join(versions)} {{ {'global: ' + listed if funcs else ''}local: *; }};\n", encoding="utf-8")
            subprocess.run(["gcc", "-shared", "-fPIC", "-w", "-fno-builtin", f"-Wl,-soname,{soname}",
                            f"-Wl,--version-script={script}", "-o", str(out / soname), str(source)], check=True)
        made.append(out / soname)
    return made


def download(out: Path, without: list[str], torch: bool = False) -> int:
    from importlib.metadata import distributions

    if sys.version_info[:2] != (3, 12):
        raise SystemExit("run this with the build environment's Python 3.12 (.nox/kb/bin/python)")
    shutil.rmtree(out, ignore_errors=True)
    wheels = out / "wheels"
    wheels.mkdir(parents=True)
    # Each dependency at the version the build ran with (the pass runs what the site's build ran).
    installed = {d.metadata["Name"].lower(): d.version for d in distributions()}
    pins = carried(ROOT / "requirements.txt", installed, without)
    if torch:  # torch and triton, then what torch requires that is not NVIDIA's or in the first bundle
        bundled = json.loads((out.parent / "pinned" / "MANIFEST.json").read_text(encoding="utf-8"))["wheels"]
        from importlib.metadata import requires

        pins = [p for p in runtime_pins(ROOT / "requirements.txt") if p.split("==")[0] in ("torch", "triton")]
        needs, todo = set(), ["torch"]
        while todo:  # what torch requires, and what that requires, as the build environment has it
            for r in requires(todo.pop()) or []:
                name = re.split(r"[ ;<>=!~\[]", r)[0]
                if "extra ==" not in r and not NOT_CARRIED.match(name) and name not in needs:
                    needs.add(name)
                    todo.append(name)
        deps = sorted(n for n in needs if not any(
            w.lower().startswith(n.lower().replace("-", "_") + "-") for w in bundled))
    constraints = out / "constraints.txt"
    constraints.write_text("".join(f"{n}=={v}\n" for n, v in sorted(installed.items())
                                   if n not in without and not NOT_CARRIED.match(n)), encoding="utf-8")
    platforms = [arg for tag in PLATFORM_TAGS for arg in ("--platform", tag)]
    pip = [sys.executable, "-m", "pip", "download", "-q", "--only-binary=:all:", "--python-version", "3.12",
           "--implementation", "cp", *platforms, "-d", str(wheels), "-c", str(constraints)]
    if torch:
        subprocess.run([*pip, "--no-deps", *pins, *deps], check=True)
        stubs = cuda_stubs(out / "kb-cuda-stubs")
        manifest = pack([*sorted(wheels.glob("*.whl")), *stubs], out, {"python": "3.12", "pins": pins + deps})
        shutil.rmtree(out / "kb-cuda-stubs")
    else:
        subprocess.run([*pip, *pins], check=True)
        manifest = pack(sorted(wheels.glob("*.whl")), out, {"python": "3.12", "pins": pins})
    shutil.rmtree(wheels)
    constraints.unlink()
    total = sum(w["bytes"] for w in manifest["wheels"].values())
    where = out.relative_to(ROOT) if out.is_relative_to(ROOT) else out
    pieces = manifest["pieces"]
    print(f"{len(manifest['wheels'])} wheels, {total / 2**20:.0f} MiB, in {len(pieces)} pieces of at most "
          f"{PIECE // 2**20} MiB in {where}")
    print("carry them one per call (the first with the manifest):")
    for name in pieces:
        extra = f" {where}/MANIFEST.json" if name == pieces[0] else ""
        print(f"  carry {where}/{name}{extra}: python3 tools/machine/wheels.py receive {where}/{name}{extra}")
    return 0


def pack(files: list[Path], out: Path, manifest: dict, piece: int = PIECE) -> dict:
    """Pack ``files`` into one tar cut into pieces of at most ``piece`` bytes in ``out``, with
    ``MANIFEST.json`` (each file's size and sha256, the tar's sha256, the pieces in order)."""
    manifest = {**manifest, "wheels": {f.name: {"bytes": f.stat().st_size, "sha256": sha256(f)} for f in files}}
    tar = out / f"{out.name}.tar"
    with tarfile.open(tar, "w") as archive:
        for f in files:
            archive.add(f, arcname=f"wheels/{f.name}")
    manifest["tar_sha256"] = sha256(tar)
    manifest["pieces"] = []
    with open(tar, "rb") as whole:
        for number, block in enumerate(iter(lambda: whole.read(piece), b"")):
            (out / f"{tar.name}.{number:03}").write_bytes(block)
            manifest["pieces"].append(f"{tar.name}.{number:03}")
    tar.unlink()
    (out / "MANIFEST.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def unpack(pieces: Path, work: Path) -> list[Path]:
    """The files (wheels, stand-in libraries) of the pieces in ``pieces`` (with their ``MANIFEST.json``),
    joined and extracted into ``work``, every byte checked against the manifest; a clear error names
    what is wrong."""
    manifest = json.loads((pieces / "MANIFEST.json").read_text(encoding="utf-8"))
    missing = [name for name in manifest["pieces"] if not (pieces / name).exists()]
    if missing:
        raise SystemExit(f"pieces not received yet: {', '.join(missing)}")
    tar = work / "pinned.tar"
    with open(tar, "wb") as whole:
        for name in manifest["pieces"]:
            whole.write((pieces / name).read_bytes())
    if sha256(tar) != manifest["tar_sha256"]:
        raise SystemExit("the joined pieces are not the tar that was packed (a piece cut short or out of date?)")
    with tarfile.open(tar) as archive:
        archive.extractall(work, filter="data")
    wheels = sorted((work / "wheels").iterdir())
    bad = [w.name for w in wheels if manifest["wheels"].get(w.name, {}).get("sha256") != sha256(w)]
    if bad or len(wheels) != len(manifest["wheels"]):
        raise SystemExit(f"wheels that do not match the manifest: {bad or 'a wheel is missing'}")
    return wheels


def receive(paths: list[Path]) -> int:
    for path in paths:  # each bundle's pieces in a folder named as the bundle's (pinned, torch)
        (PIECES / path.parent.name).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, PIECES / path.parent.name / path.name)
        print(f"received {path.parent.name}/{path.name} ({path.stat().st_size} bytes)")
    print("pieces here:", " ".join(sorted(str(p.relative_to(PIECES)) for p in PIECES.glob("*/*"))))
    return 0


def install(target: Path, bundle: str = "pinned") -> int:
    with tempfile.TemporaryDirectory(prefix="kb-wheels-") as work:
        files = unpack(PIECES / bundle, Path(work))
        wheels = [f for f in files if f.suffix == ".whl"]
        if stubs := [f for f in files if f.suffix != ".whl"]:
            (target / "kb-cuda-stubs").mkdir(parents=True, exist_ok=True)
            for f in stubs:
                shutil.copyfile(f, target / "kb-cuda-stubs" / f.name)
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--isolated", "--disable-pip-version-check",
                        "--no-index", "--no-deps", "--no-compile", "--upgrade", "--target", str(target),
                        *map(str, wheels)], check=True, env={**os.environ, "PIP_CONFIG_FILE": os.devnull})
    print(f"installed {len(wheels)} wheels into {target} for Python {sys.version.split()[0]}"
          + (f", {len(stubs)} stand-in NVIDIA libraries into {target / 'kb-cuda-stubs'}" if stubs else ""))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    down = verbs.add_parser("download", help="here: download, check and pack the pinned wheels into pieces")
    down.add_argument("--out", type=Path, default=None, help="default .whl-tpu/pinned (.whl-tpu/torch with --torch)")
    down.add_argument("--torch", action="store_true", help="the torch bundle: torch, its needs, stand-in NVIDIA libraries")
    down.add_argument("--without", action="append", default=[], metavar="NAME",
                      help="leave a pin out (e.g. triton, when the machine has its own)")
    get = verbs.add_parser("receive", help="there: keep carried pieces in /tmp/kb-pieces")
    get.add_argument("pieces", type=Path, nargs="+")
    put = verbs.add_parser("install", help="there: join, verify and install the pieces")
    put.add_argument("--target", type=Path, default=Path("/tmp/kb-pinned"))
    put.add_argument("--bundle", default="pinned", help="which carried bundle: pinned (default) or torch")
    args = parser.parse_args(argv)
    if args.verb == "download":
        out = args.out or ROOT / ".whl-tpu" / ("torch" if args.torch else "pinned")
        return download(out.resolve(), args.without, args.torch)
    if args.verb == "receive":
        return receive(args.pieces)
    if sys.version_info[:2] != (3, 12):
        raise SystemExit(f"install under the Python the pass runs with, 3.12 (this is {sys.version.split()[0]})")
    return install(args.target, args.bundle)


if __name__ == "__main__":
    sys.exit(main())
