"""The release canary (tools/canary.py) on a tiny site, against a tiny package with two releases.

``kbdrift`` 1.0 has ``old_api``; 2.0 removed it (the kind of drift the canary is for). Both wheels
are written here and installed from a local folder (``--no-index``): no network. The canary must
install the asked release into its own environment, run only the snippet that imports the
package, and report the failure with the missing API's message; the build's environment never
sees kbdrift. The floor walk then stops at the first release that fails.
"""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tools.site import ROOT

PAGE = """---
file_format: mystnb
kernelspec:
  name: python3
  display_name: Python 3
---

# A page

```{code-cell} python
:load: ../../snippets/sec/uses_drift.py
```

```{code-cell} python
:load: ../../snippets/sec/plain.py
```

```{code-cell} python
:load: ../../snippets/sec/uses_dep.py
```
"""
USES = '"""Calls the API that kbdrift 2.0 removed."""\nimport kbdrift\n\nprint(kbdrift.old_api())\nassert kbdrift.old_api() == 1\n'
# kbdep 1.0 requires kbdrift>=2.0, and its program runs kbdrift in a child process only.
DEP = ('"""Runs kbdep in a child process."""\nimport subprocess\nimport sys\n\n'
       'CHILD = """\nimport kbdep\nprint(kbdep.VERSION)\n"""\n'
       'out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, check=True)\n'
       'print(out.stdout.strip())\nassert out.stdout.strip() == "1.0"\n')
PLAIN = '"""Imports no package the canary changes."""\nprint(sum(range(4)))\nassert sum(range(4)) == 6\n'


def wheel(folder: Path, version: str, body: str, package: str = "kbdrift", requires: str = "") -> Path:
    """A pure-Python wheel (zip, METADATA, WHEEL and RECORD, as pip expects)."""
    dist = f"{package}-{version}.dist-info"
    files = {
        f"{package}/__init__.py": body,
        f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {package}\nVersion: {version}\n"
                            + (f"Requires-Dist: {requires}\n" if requires else ""),
        f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: kb-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    for name, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(text.encode())}")
    files[f"{dist}/RECORD"] = "\n".join(record + [f"{dist}/RECORD,,"]) + "\n"
    path = folder / f"{package}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    return path


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("canary")
    (root / "docs" / "sec").mkdir(parents=True)
    (root / "docs" / "sec" / "page.md").write_text(PAGE, encoding="utf-8")
    (root / "snippets" / "sec").mkdir(parents=True)
    (root / "snippets" / "sec" / "uses_drift.py").write_text(USES, encoding="utf-8")
    (root / "snippets" / "sec" / "plain.py").write_text(PLAIN, encoding="utf-8")
    (root / "snippets" / "sec" / "uses_dep.py").write_text(DEP, encoding="utf-8")
    wheels = root / "wheels"
    wheels.mkdir()
    wheel(wheels, "1.0", "def old_api():\n    return 1\n")
    wheel(wheels, "2.0", "def new_api():\n    return 2\n")
    wheel(wheels, "1.0", "VERSION = '1.0'\n", package="kbdep", requires="kbdrift>=2.0")
    return root


def canary(site: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tools.canary", *args, "--docs", str(site / "docs"),
                           "--env-root", str(site / "envs"), "--pip=--no-index", f"--pip=--find-links={site / 'wheels'}"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_an_incompatible_release_fails_with_its_api_message(site):
    out = site / "report-2"
    result = canary(site, "kbdrift==2.0", "--out", str(out))
    assert result.returncode == 1, result.stdout + result.stderr
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["install"]["ok"] and report["changed"] == {"kbdrift": [None, "2.0"]}
    drift, plain = report["snippets"]["snippets/sec/uses_drift.py"], report["snippets"]["snippets/sec/plain.py"]
    assert drift["status"] == "fail" and drift["line"] == 4, drift
    assert "has no attribute 'old_api'" in drift["error"] and "old_api" in drift["drift"]
    assert plain["status"] == "not affected"  # it imports nothing that changed, so it did not run
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "| sec/page | `snippets/sec/uses_drift.py:4` | AttributeError" in md and "1 fail" in md
    # The pins never change: the build's environment still has no kbdrift.
    assert subprocess.run([sys.executable, "-c", "import kbdrift"], capture_output=True).returncode != 0


def test_a_compatible_release_passes(site):
    out = site / "report-1"
    result = canary(site, "kbdrift==1.0", "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["snippets"]["snippets/sec/uses_drift.py"]["status"] == "pass"


def test_a_release_pip_cannot_find_is_a_failed_report(site):
    out = site / "report-9"
    result = canary(site, "kbdrift==9.0", "--out", str(out))
    assert result.returncode == 1
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert not report["install"]["ok"] and any("kbdrift==9.0" in line for line in report["install"]["errors"])
    assert "pip could not install" in (out / "report.md").read_text(encoding="utf-8")


def test_bad_specs_are_refused_with_the_expected_form(site):
    result = canary(site, "kbdrift>=1")
    assert result.returncode == 2 and "expected name==version" in result.stderr


def test_the_floor_walk_stops_at_the_first_failing_release(site):
    floors = site / "floors"
    result = canary(site, "--floors", "kbdrift==1.0", "kbdrift==2.0", "--floors-dir", str(floors),
                    "--out", str(site / "floor-reports"))
    assert result.returncode == 0, result.stdout + result.stderr
    one = json.loads((floors / "kbdrift-1.0.json").read_text(encoding="utf-8"))
    two = json.loads((floors / "kbdrift-2.0.json").read_text(encoding="utf-8"))
    assert one["snippets"]["snippets/sec/uses_drift.py"]["status"] == "pass"
    assert two["snippets"]["snippets/sec/uses_drift.py"]["status"] == "fail"
    # The walk's first step lists the unaffected snippet too (no floor for it, but kb.floors can tell
    # it from one added since); later steps only what ran.
    assert one["snippets"]["snippets/sec/plain.py"]["status"] == "not affected"
    assert "snippets/sec/plain.py" not in two["snippets"]
    expected = hashlib.sha256(USES.encode()).hexdigest()
    assert one["snippets"]["snippets/sec/uses_drift.py"]["sha256"] == expected
    assert one["date"] and one["machine"]


def test_a_set_pip_cannot_install_together_runs_nothing_that_loads_it(site):
    """kbdep 1.0 requires kbdrift>=2.0: with kbdrift 1.0 beside it (pip installs the pair only with
    --no-deps, and pip check complains), the program that loads kbdep, in a child process, is not
    installable and does not run; the one that needs only kbdrift 1.0 runs and passes."""
    out = site / "report-conflict"
    result = canary(site, "kbdep==1.0", "kbdrift==1.0", "--pip=--no-deps", "--out", str(out))
    assert result.returncode == 1, result.stdout + result.stderr
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    dep = report["snippets"]["snippets/sec/uses_dep.py"]
    assert dep["status"] == "not installable", dep
    assert dep["error"] == "kbdep 1.0 requires kbdrift>=2.0 (this set has kbdrift 1.0)"
    assert report["snippets"]["snippets/sec/uses_drift.py"]["status"] == "pass"
    assert report["requires"]["kbdep"] == {"version": "1.0", "requires": ["kbdrift>=2.0"]}
    assert report["conflicts"] == {"kbdep": [dep["error"]]}
    assert "1 not installable" in (out / "report.md").read_text(encoding="utf-8")


def test_a_program_whose_package_runs_in_a_child_is_checked_on_the_release(site):
    """uses_dep.py imports only subprocess and sys; kbdep runs in its child, under the overlay's
    interpreter, so it is affected by kbdep and passes with it (pip brings kbdrift 2.0, on which
    uses_drift.py fails: the canary's exit status is 1)."""
    out = site / "report-child"
    result = canary(site, "kbdep==1.0", "--out", str(out))
    assert "[canary] snippets/sec/uses_dep.py: ok" in result.stdout, result.stdout + result.stderr
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["snippets"]["snippets/sec/uses_dep.py"]["status"] == "pass"
    assert report["changed"] == {"kbdep": [None, "1.0"], "kbdrift": [None, "2.0"]}
