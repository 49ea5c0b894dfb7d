"""kb.floors: a page's oldest working releases, from the committed floor reports.

Unit tests of the walk on made-up reports, then the committed reports themselves: each is one
package at one release with its date and machine, and the pages of the built site show what they
imply (the header box's "Runs on" line and the migration page's table, in both languages).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kb.floors import (PACKAGES, RELEASES, floors_of, impossible, load_reports, page_floor, page_floors,
                       report_problems, requirements_of, version_key)
from kb.run.plan import snippet_digest
from kb.run.store import pinned_versions
from tools.canary import closure, installed_graph, uses
from tools.shards import site_plan
from tools.site import DOCS, ROOT

FLOORS = DOCS / "_data" / "floors"


def report(version: str, **snippets: str) -> dict:
    return {"package": "jax", "version": version, "date": "2026-12-02",
            "snippets": {name: {"status": status, "sha256": "h-" + name, "error": "E" if status == "fail" else None,
                                "drift": None} for name, status in snippets.items()}}


def test_the_floor_is_the_oldest_release_every_program_passed():
    reports = [report("0.11.2", a="pass", b="pass"), report("0.10.2", a="pass", b="fail"), report("0.9.2", a="pass")]
    found = page_floor({"a": "h-a", "b": "h-b"}, reports, "0.12.0")
    assert found["floor"] == "0.11.2" and found["below"]["version"] == "0.10.2" and found["below"]["snippet"] == "b"
    found = page_floor({"a": "h-a"}, reports, "0.12.0")
    assert found["floor"] == "0.9.2" and found["below"] is None and found["oldest_checked"] == "0.9.2"


def test_a_floor_is_the_pin_when_the_newest_older_release_fails():
    found = page_floor({"a": "h-a"}, [report("0.11.2", a="fail")], "0.12.0")
    assert found["floor"] == "0.12.0" and found["below"]["version"] == "0.11.2"


def test_an_edited_or_new_snippet_gets_no_floor_until_checked_again():
    reports = [report("0.11.2", a="pass")]
    assert page_floor({"a": "other"}, reports, "0.12.0") is None
    assert page_floor({"a": "h-a", "new": "h-new"}, reports, "0.12.0") is None


def test_a_project_without_floor_reports_shows_no_floors(tmp_path):
    """A project with no reports (a fixture, a fork) builds without a requirements.txt and says nothing."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets" / "a.py").write_text("print(1)\n", encoding="utf-8")
    assert floors_of(tmp_path / "docs", "_data/floors", ["snippets/a.py"]) == {}


def test_reports_load_newest_first(tmp_path):
    for version in ("0.9.2", "0.11.2", "0.10.2"):
        (tmp_path / f"jax-{version}.json").write_text(json.dumps(report(version)), encoding="utf-8")
    assert [r["version"] for r in load_reports(tmp_path)["jax"]] == ["0.11.2", "0.10.2", "0.9.2"]


# The reader review of 2026-12-06: the Flax pages said "jax >= 0.10.2" beside flax 0.12.12, which
# itself requires jax >= 0.11.1. The walk had installed jax 0.10.2 behind the pinned flax (pip only
# warned), and the Flax programs passed on that set.
FLAX_PIN = {"version": "0.12.12", "requires": ["jax>=0.11.1", "optax", "numpy>=1.23.2"]}


def impossible_project(tmp_path: Path, flax_status: str) -> Path:
    """A project whose one program uses flax, with a jax walk (0.10.2, flax at its pin) and a flax
    walk (0.11.2 fails, so flax's floor is the pin)."""
    (tmp_path / "docs" / "_data" / "floors").mkdir(parents=True)
    (tmp_path / "snippets").mkdir()
    program = tmp_path / "snippets" / "f.py"
    program.write_text("from flax import nnx\nprint(nnx)\n", encoding="utf-8")
    (tmp_path / "requirements.txt").write_text("jax==0.12.0.1\nflax==0.12.12\n", encoding="utf-8")
    sha = snippet_digest(program)
    jax = {"format": 2, "package": "jax", "version": "0.10.2", "date": "2026-12-06", "install": {"ok": True},
           "changed": {"jax": ["0.12.0.1", "0.10.2"]}, "conflicts": {},
           "requires": {"flax": FLAX_PIN, "jax": {"version": "0.10.2", "requires": ["jaxlib<=0.10.2,>=0.10.2"]}},
           "snippets": {"snippets/f.py": {"status": flax_status, "sha256": sha}}}
    flax = {"format": 2, "package": "flax", "version": "0.11.2", "date": "2026-12-06", "install": {"ok": True},
            "changed": {"flax": ["0.12.12", "0.11.2"]}, "conflicts": {},
            "requires": {"flax": {"version": "0.11.2", "requires": ["jax>=0.6"]},
                         "jax": {"version": "0.12.0.1", "requires": ["jaxlib<=0.12.0.1,>=0.12.0.1"]}},
            "snippets": {"snippets/f.py": {"status": "fail", "sha256": sha, "error": "ImportError"}}}
    for report in (jax, flax):
        path = tmp_path / "docs" / "_data" / "floors" / f"{report['package']}-{report['version']}.json"
        path.write_text(json.dumps(report), encoding="utf-8")
    return tmp_path


def test_a_floor_line_naming_releases_pip_cannot_install_together_is_refused(tmp_path):
    root = impossible_project(tmp_path, "pass")
    floors, problems = page_floors(root / "docs", "_data/floors", ["snippets/f.py"])
    assert {p: f["floor"] for p, f in floors.items()} == {"jax": "0.10.2", "flax": "0.12.12"}
    assert problems == ["flax 0.12.12 requires jax>=0.11.1, not jax 0.10.2"]
    assert floors_of(root / "docs", "_data/floors", ["snippets/f.py"]) == {}  # the page says nothing
    # The report itself is refused too: a Flax program passed on a set pip cannot install.
    report = json.loads((root / "docs/_data/floors/jax-0.10.2.json").read_text(encoding="utf-8"))
    assert report_problems(report, lambda name, sha: {"flax", "jax", "optax"}) == [
        "flax 0.12.12 requires jax>=0.11.1, not jax 0.10.2, and the report does not say so",
        "snippets/f.py passes on jax 0.10.2 with flax 0.12.12, which pip cannot install together"]


def test_the_walk_as_it_is_now_gives_a_set_pip_can_install(tmp_path):
    """The canary marks the Flax program 'not installable' on jax 0.10.2 (flax 0.12.12 stays): the
    page's jax floor is the pin, a set that installs."""
    root = impossible_project(tmp_path, "not installable")
    report_path = root / "docs/_data/floors/jax-0.10.2.json"
    report = json.loads(report_path.read_text(encoding="utf-8"))
    report["conflicts"] = {"flax": ["flax 0.12.12 requires jax>=0.11.1 (this set has jax 0.10.2)"]}
    report_path.write_text(json.dumps(report), encoding="utf-8")
    floors = floors_of(root / "docs", "_data/floors", ["snippets/f.py"])
    assert {p: f["floor"] for p, f in floors.items()} == {"jax": "0.12.0.1", "flax": "0.12.12"}
    assert report_problems(report, lambda name, sha: {"flax", "jax"}) == []


def test_a_release_whose_requirements_no_report_recorded_is_not_claimed():
    assert impossible({"jax": "0.9.2"}, {}) == ["jax 0.9.2: no report recorded its requirements"]


def test_the_committed_reports_are_dated_and_name_their_machine():
    paths = sorted(FLOORS.glob("*.json"))
    assert paths, "no floor reports: run nox -s canary -- --floors and commit docs/_data/floors/"
    pinned = pinned_versions(ROOT / "requirements.txt")
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert path.name == f"{data['package']}-{data['version']}.json"
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", data["date"]) and "cores" in data["machine"]
        assert data["package"] in PACKAGES and version_key(data["version"]) < version_key(pinned[data["package"]])
        assert data["install"]["ok"], (path.name, data["install"])


def test_the_committed_reports_claim_no_pass_on_a_set_pip_cannot_install():
    """Each report keeps the requirements of the releases it followed; a program that passed must
    not load a release whose own requirements that set breaks (its imports, its child processes'
    and what they require, in the pinned environment: tools.canary.uses and closure)."""
    _, requires, modules, _ = installed_graph()

    def loads(name: str, sha: str) -> set[str] | None:
        path = ROOT / name
        if not path.is_file() or snippet_digest(path) != sha:
            return None
        return closure(uses(path.read_text(encoding="utf-8"), modules), requires)

    problems = [p for path in sorted(FLOORS.glob("*.json"))
                for p in report_problems(json.loads(path.read_text(encoding="utf-8")), loads)]
    assert problems == []


def test_every_page_with_programs_names_a_set_pip_can_install():
    """Every page whose programs use jax, flax or optax shows its floors (none edited since the
    walk, none added), and the releases its line names install together."""
    reports = load_reports(FLOORS)
    table = requirements_of(reports)
    _, requires, modules, _ = installed_graph()
    pages = site_plan(DOCS).pages
    without, wrong = [], []
    for page, names in sorted(pages.items()):
        floors, problems = page_floors(DOCS, "_data/floors", names)
        wrong += [f"{page}: {p}" for p in problems]
        used = any(closure(uses((ROOT / name).read_text(encoding="utf-8"), modules), requires) & set(PACKAGES)
                   for name in names)
        if used and not floors:
            without.append(page)
        named = {p: f["floor"] for p, f in floors.items()}
        assert not impossible(named, table) or problems
    assert wrong == [] and without == [], (wrong, without)


def built(site: Path, language: str, page: str) -> str:
    return (site / language / f"{page}.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("language,runs_on", [("en", "Runs on"), ("zh_CN", "可运行于")])
def test_pages_say_which_releases_they_run_on(site, language, runs_on):
    # A page whose programs are all as the committed floor reports checked them (an edited program
    # takes its page's claim away until the next walk, nox -s canary -- --floors).
    html = built(site, language, "core/pytrees")
    box = re.search(r'<p class="kb-floors">(.*?)</p>', html, re.S)
    assert box is not None and runs_on in box.group(1)
    assert RELEASES["jax"].split("{")[0] in box.group(1)  # each floor links to its release notes
    assert "reference/migration.html#ref-migration-floors" in box.group(1)


@pytest.mark.parametrize("language,header", [("en", "What fails on the release below"), ("zh_CN", "再早一个版本上哪里出错")])
def test_the_migration_page_lists_every_page_with_a_floor(site, language, header):
    html = built(site, language, "reference/migration")
    table = re.search(r'<table class="[^"]*kb-floors-table.*?</table>', html, re.S)
    assert table is not None and header in table.group(0)
    rows = re.findall(r"<tr", table.group(0))
    pages_with_floors = sum(1 for page in ("core/pytrees", "flax/nnx-basics", "xla/memory-schedulers")
                            if 'class="kb-floors"' in built(site, language, page))
    assert pages_with_floors == 3 and len(rows) > 20
