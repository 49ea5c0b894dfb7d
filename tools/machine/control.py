"""The CPU control of an accelerator report: its failed programs, on a CPU, with that machine's versions.

    python3.11 tools/machine/control.py reports/machines/<report>.json [--site DIR] [--pip ARG ...]

A lent accelerator machine runs its own jax (a TPU VM: jax 0.10.2 under Python 3.11), not the pins,
so a program that fails there may fail because of the accelerator or because of the versions. This
command tells the two apart on any CPU machine, with no accelerator and no network beyond a package
index:

1. it checks that it runs under the report's Python (major.minor.micro: start it with that
   interpreter, e.g. ``PYENV_VERSION=3.11.7 python3 tools/machine/control.py ...``);
2. installs into ``--site`` (default ``_build/cpu-control/<report>``) exactly the report's tracked
   versions (``installed``: jax, jaxlib, flax, optax, orbax-checkpoint, torch, numpy, scipy), plus
   the unpinned extras the programs import (``EXTRAS``), from the local index ``/opt/pypi/simple``
   where it exists (what ``tools/machine/tpu_pass.sh`` uses on the VM, so that the packages' own needs
   resolve alike), and the carried wheels in ``.whl-tpu/``; ``--pip`` passes more arguments to pip.
   The control report lists every distribution it ran with (``distributions``);
3. runs the report's failed and "versions differ" programs there with ``tools/machine/report.py
   --policy tpu``, the policy the TPU pass ran them under (shared processes, a failure run again
   alone in a fresh process), writing the control report to
   ``reports/machines/controls/<report>-cpu-control.json`` and ``.md``;
4. applies it (``report.py --reclassify REPORT --control CONTROL``): a failure is "versions
   differ" only where the control fails the same program (same sha256) with the same first error.

Why our own code: pip and a virtualenv do the installing; what no tool does is pick an
accelerator report's failures and judge them against a CPU run with its versions.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXTRAS = ("scikit-learn", "matplotlib")  # grain: from the carried wheels, as on the VM


def requirements(report: dict) -> list[str]:
    """pip requirements for the report's tracked versions.

    >>> requirements({"installed": {"jax": "0.10.2", "torch": "2.13.0+cpu"}})
    ['jax==0.10.2', 'torch==2.13.0+cpu', 'scikit-learn', 'matplotlib']
    """
    return [f"{name}=={version}" for name, version in report["installed"].items()] + list(EXTRAS)


def failures(report: dict) -> list[str]:
    """The programs to check: failed or "versions differ", as globs for ``--only``.

    >>> failures({"snippets": [{"snippet": "snippets/a/x.py", "outcome": "failed"},
    ...                        {"snippet": "snippets/a/y.py", "outcome": "ok"}]})
    ['a/x.py']
    """
    return [row["snippet"].removeprefix("snippets/") for row in report["snippets"]
            if row["outcome"] in ("failed", "versions differ")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", type=Path, help="an accelerator report from tools/machine/report.py")
    parser.add_argument("--site", type=Path, help="where the versions are installed (default _build/cpu-control/<report>)")
    parser.add_argument("--pip", action="append", default=[], metavar="ARG", help="an extra argument for pip install")
    args = parser.parse_args(argv)
    report = json.loads(args.report.read_text(encoding="utf-8"))
    if platform.python_version() != report["python"]:
        parser.error(f"the report ran under Python {report['python']}; start this with that interpreter, "
                     f"not {platform.python_version()}")
    names = failures(report)
    if not names:
        print("no failed program: nothing to check", file=sys.stderr)
        return 0
    stem = args.report.stem
    site = (args.site or ROOT / "_build" / "cpu-control" / stem).resolve()
    # The marker holds what was installed: a report with other versions (or more of them) installs again.
    wanted = "\n".join(requirements(report)) + "\n"
    marker = site / ".installed"
    if not marker.exists() or marker.read_text(encoding="utf-8") != wanted:
        shutil.rmtree(site, ignore_errors=True)
        # As tools/machine/tpu_pass.sh installs on the VM: the same local index where there is one (the
        # packages' own needs then resolve as they did there), torch's CPU build, the carried wheels.
        index = ["--index-url", "file:///opt/pypi/simple"] if Path("/opt/pypi/simple").is_dir() else []
        links = ["--find-links", "/opt/wheels"] if Path("/opt/wheels").is_dir() else []
        pip = [sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--only-binary=:all:", "--upgrade"]
        subprocess.run([*pip, "--target", str(site), *index, *links, *args.pip, *requirements(report)], check=True)
        for wheel in sorted((ROOT / ".whl-tpu").glob("*.whl")):
            subprocess.run([*pip, "--no-index", "--no-deps", "--target", str(site / "wheels"), str(wheel)], check=True)
        marker.write_text(wanted, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JAX_", "XLA_"))}
    env["PYTHONPATH"] = f"{site}{os.pathsep}{site / 'wheels'}"
    out = ROOT / "_build" / "cpu-control" / f"{stem}-out"
    # The pass's own policy (the TPU's: one program at a time, in shared processes, a failure run again
    # in a fresh one), as the programs ran on the VM.
    state = ROOT / "_build" / "cpu-control" / f"{stem}-state"
    shutil.rmtree(state, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run([sys.executable, str(ROOT / "tools" / "machine" / "report.py"), "--only", ",".join(names),
                    "--policy", "tpu", "--state", str(state), "--out", str(out),
                    "--workers", str(min(4, os.cpu_count() or 1))], env=env, check=True)
    [written] = sorted(out.glob("*.json"), key=lambda p: p.stat().st_mtime)[-1:]
    control = json.loads(written.read_text(encoding="utf-8"))
    if control["installed"] != report["installed"]:
        raise SystemExit(f"pip installed {control['installed']}, not the report's {report['installed']}")
    controls = ROOT / "reports" / "machines" / "controls"
    controls.mkdir(parents=True, exist_ok=True)
    target = controls / f"{stem}-cpu-control.json"
    from importlib.metadata import distributions
    control["distributions"] = dict(sorted((d.metadata["Name"], d.version) for d in distributions(path=[str(site), str(site / "wheels")])))
    target.write_text(json.dumps(control, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    target.with_suffix(".md").write_text(written.with_suffix(".md").read_text(encoding="utf-8"), encoding="utf-8")
    return subprocess.run([sys.executable, str(ROOT / "tools" / "machine" / "report.py"), "--reclassify", str(args.report),
                           "--control", str(target)]).returncode


if __name__ == "__main__":
    sys.exit(main())
