"""The pinned stack for a machine that cannot reach a package index: download here, carry in pieces, install there.

    python tools/machine/wheels.py download [--out DIR] [--without NAME ...]   (here, with .nox/kb's Python)
    python3 tools/machine/wheels.py receive PIECE ...                        (there: one carried piece per call)
    python3 tools/machine/wheels.py install [--target DIR]                   (there: reassemble, verify, install)

A lent TPU VM has its own Python 3.11 and jax 0.10.2, a package index of cp311 wheels, no network,
and calls that carry at most 64 MiB. The site's pins need Python 3.12 (jax 0.12 requires it), so a
pass on the pins (``bash tools/machine/tpu_pass.sh``) brings every wheel itself:

1. ``download`` (here) asks pip for every pin of ``requirements.txt`` that the programs import (the
   lines above its site-builder section, read by ``kb.notebooks.runtime_pins``), with ``jax[tpu]`` for libtpu,
   the notebook runner's nbclient and ipykernel (``RUNNER``, for the pass's ``--notebooks``), and
   everything they require, as CPython 3.12 manylinux x86_64 wheels, each dependency held to the
   version the build's own environment has (a constraint per installed distribution: the pass runs
   what the site's build ran). torch and triton are not carried (``NOT_CARRIED``): the registry's
   torch 2.13.0 for Linux is the CUDA build, and it does not import without its NVIDIA libraries
   (``libcudnn.so.9: cannot open shared object file``, checked here on 2026-12-07), which take 2.7
   GB; no CPU build for Python 3.12 is on the registry or on the lent VM (its ``/opt/wheels`` has
   torch 2.13.0+cpu for Python 3.11 only). The programs that import torch are then "not installed
   here" in the report, named, and not run (``tools/machine/report.py``). It writes ``MANIFEST`` (each wheel's name, size and sha256), packs the
   wheels into one tar and cuts it into numbered pieces of at most ``PIECE`` bytes
   (``pinned.tar.000``, ...) in ``--out`` (default ``.whl-tpu/pinned/``, which git ignores), and
   prints the calls that carry them.
2. ``receive`` (there) copies the carried pieces to ``/tmp/kb-pieces`` (the machine keeps ``/tmp``
   between the calls of one sitting; the working tree is laid anew each call).
3. ``install`` (there) joins the pieces, checks the tar's sha256 and then every wheel's against the
   manifest (a piece missing or cut short is named), and installs them with pip from those files
   only (``--no-index --no-deps --target``, default ``/tmp/kb-pinned``) under the Python that runs
   it, which must be 3.12; it prints the versions it installed.

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
PIECE = 56 * 2**20  # a call carries at most 64 MiB, the working tree (about 7 MiB) included
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


def download(out: Path, without: list[str]) -> int:
    from importlib.metadata import distributions

    if sys.version_info[:2] != (3, 12):
        raise SystemExit("run this with the build environment's Python 3.12 (.nox/kb/bin/python)")
    shutil.rmtree(out, ignore_errors=True)
    wheels = out / "wheels"
    wheels.mkdir(parents=True)
    # Each dependency at the version the build ran with (the pass runs what the site's build ran).
    installed = {d.metadata["Name"].lower(): d.version for d in distributions()}
    pins = carried(ROOT / "requirements.txt", installed, without)
    constraints = out / "constraints.txt"
    constraints.write_text("".join(f"{n}=={v}\n" for n, v in sorted(installed.items())
                                   if n not in without and not NOT_CARRIED.match(n)), encoding="utf-8")
    platforms = [arg for tag in PLATFORM_TAGS for arg in ("--platform", tag)]
    pip = [sys.executable, "-m", "pip", "download", "-q", "--only-binary=:all:", "--python-version", "3.12",
           "--implementation", "cp", *platforms, "-d", str(wheels), "-c", str(constraints)]
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
    tar = out / "pinned.tar"
    with tarfile.open(tar, "w") as archive:
        for f in files:
            archive.add(f, arcname=f"wheels/{f.name}")
    manifest["tar_sha256"] = sha256(tar)
    manifest["pieces"] = []
    with open(tar, "rb") as whole:
        for number, block in enumerate(iter(lambda: whole.read(piece), b"")):
            (out / f"pinned.tar.{number:03}").write_bytes(block)
            manifest["pieces"].append(f"pinned.tar.{number:03}")
    tar.unlink()
    (out / "MANIFEST.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def unpack(pieces: Path, work: Path) -> list[Path]:
    """The wheels of the pieces in ``pieces`` (with their ``MANIFEST.json``), joined and extracted
    into ``work``, every byte checked against the manifest; a clear error names what is wrong."""
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
    wheels = sorted((work / "wheels").glob("*.whl"))
    bad = [w.name for w in wheels if manifest["wheels"].get(w.name, {}).get("sha256") != sha256(w)]
    if bad or len(wheels) != len(manifest["wheels"]):
        raise SystemExit(f"wheels that do not match the manifest: {bad or 'a wheel is missing'}")
    return wheels


def receive(paths: list[Path]) -> int:
    PIECES.mkdir(parents=True, exist_ok=True)
    for path in paths:
        shutil.copyfile(path, PIECES / path.name)
        print(f"received {path.name} ({path.stat().st_size} bytes)")
    print("pieces here:", " ".join(sorted(p.name for p in PIECES.iterdir())))
    return 0


def install(target: Path) -> int:
    with tempfile.TemporaryDirectory(prefix="kb-wheels-") as work:
        wheels = unpack(PIECES, Path(work))
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--isolated", "--disable-pip-version-check",
                        "--no-index", "--no-deps", "--no-compile", "--upgrade", "--target", str(target),
                        *map(str, wheels)], check=True, env={**os.environ, "PIP_CONFIG_FILE": os.devnull})
    print(f"installed {len(wheels)} wheels into {target} for Python {sys.version.split()[0]}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    down = verbs.add_parser("download", help="here: download, check and pack the pinned wheels into pieces")
    down.add_argument("--out", type=Path, default=ROOT / ".whl-tpu" / "pinned")
    down.add_argument("--without", action="append", default=[], metavar="NAME",
                      help="leave a pin out (e.g. triton, when the machine has its own)")
    get = verbs.add_parser("receive", help="there: keep carried pieces in /tmp/kb-pieces")
    get.add_argument("pieces", type=Path, nargs="+")
    put = verbs.add_parser("install", help="there: join, verify and install the pieces")
    put.add_argument("--target", type=Path, default=Path("/tmp/kb-pinned"))
    args = parser.parse_args(argv)
    if args.verb == "download":
        return download(args.out.resolve(), args.without)
    if args.verb == "receive":
        return receive(args.pieces)
    if sys.version_info[:2] != (3, 12):
        raise SystemExit(f"install under the Python the pass runs with, 3.12 (this is {sys.version.split()[0]})")
    return install(args.target)


if __name__ == "__main__":
    sys.exit(main())
