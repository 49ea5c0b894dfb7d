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

from kb.floors import PACKAGES, RELEASES, floors_of, load_reports, page_floor, version_key
from kb.run.store import pinned_versions
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
