"""kb.accelerator_status: how a TPU report renders, in each page's header box and on the status page.

Unit tests of the statuses on made-up reports, then fixture builds (tests/fixtures/good with a
status page and a machine report written by the test): no report (no line, "none yet"), a fresh
report (every program ran), a program edited since the run (counted as not run there, never as
passed), a failing program (its first error line and snippet:line on the status page), and the
platform noise a report recorded (shown with the reason from kb.run.noise), in both languages.
"""

from __future__ import annotations

import hashlib
import html
import json
import re

from kb.accelerator_status import STATUS, page_counts, result_text, snippet_status
from kb.run.noise import BY_ID
from kb.run.store import OUTCOMES

SNIPPETS = ("figure.py", "jax_side.py", "torch_side.py")
STATUS_PAGE = "# Backends\n\n```{kb-backends-table}\n```\n"


def test_every_outcome_a_report_can_hold_has_a_status_word():
    """The outcome words are defined once, in the run core (kb.run.store.OUTCOMES, which the machine
    pass writes); the status page words each of them, and two more of its own."""
    assert set(OUTCOMES) <= set(STATUS) and set(STATUS) - set(OUTCOMES) == {"changed since the run", "not run there"}


def log(result):
    return result.stdout + result.stderr


def rows(**outcomes: str) -> dict:
    return {"rows": {name: {"snippet": name, "sha256": "h-" + name, "outcome": outcome}
                     for name, outcome in outcomes.items()}}


def test_only_a_program_that_ran_as_it_is_now_counts():
    report = rows(a="ok", b="ok", c="versions differ", d="not installed here")
    assert snippet_status(report, "a", "h-a")[0] == "ok"
    assert snippet_status(report, "b", "edited")[0] == "changed since the run"  # never "ok"
    assert snippet_status(report, "new", "h-new") == ("not run there", None)
    counts = page_counts(report, {"a": "h-a", "b": "edited", "c": "h-c", "d": "h-d", "new": "h-new"})
    assert counts == {"ok": 1, "versions differ": 1, "not installed here": 1, "changed since the run": 1,
                      "not run there": 1}
    assert result_text(counts) == ("1 of 5 programs ran; 1 versions differ, 1 not installed here, "
                                   "1 changed since the run, 1 not run there")


def test_an_outcome_the_page_does_not_know_is_not_a_pass():
    assert page_counts(rows(a="segfault"), {"a": "h-a"}) == {"failed": 1}


# --------------------------------------------------------------------------------------------
# Fixture builds
# --------------------------------------------------------------------------------------------


def with_status_page(project):
    """The fixture, with the status page under the name the header lines link to."""
    (project / "docs" / "reference").mkdir()
    (project / "docs" / "reference" / "backends.md").write_text(STATUS_PAGE, encoding="utf-8")
    index = project / "docs" / "index.md"
    index.write_text(index.read_text(encoding="utf-8").replace("sec/zz-notes\n", "sec/zz-notes\nreference/backends\n"),
                     encoding="utf-8")
    return project


def tpu_report(project, *, outcomes: dict[str, tuple] | None = None, noise: bool = False,
               notebook: dict | None = None) -> None:
    """A machine report in the format of tools/machine/report.py: every fixture program ran on a
    TPU v5e with jax 0.10.2; ``outcomes`` maps a program to (outcome, first error line, its line);
    ``notebook``: the page's notebook row (tools.machine.report.NotebookRow), over its defaults."""
    outcomes = outcomes or {}
    snippets = []
    for name in SNIPPETS:
        path = project / "snippets" / "sec" / name
        outcome, error, line = outcomes.get(name, ("ok", None, None))
        snippets.append({"snippet": f"snippets/sec/{name}", "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
                         "pages": ["sec/page"], "outcome": outcome, "error": error, "error_line": line,
                         "backend": None if name == "torch_side.py" else "tpu",
                         "device": None if name == "torch_side.py" else "TPU v5 lite", "cpu_by_design": False,
                         "packages": {"jax": "0.10.2"}, "seconds": 12.5, "how": "batch",
                         "noise": ["tpu-hugepages"] if noise and name != "torch_side.py" else [], "stdout": "6\n"})
    counts: dict[str, int] = {}
    for row in snippets:
        counts[row["outcome"]] = counts.get(row["outcome"], 0) + 1
    report = {"date": "2026-12-05T14:03:00+00:00", "machine": "Linux x86_64, 13 CPU cores, TPU v5 lite",
              "backends": ["tpu"], "python": "3.11.9", "installed": {"jax": "0.10.2", "jaxlib": "0.10.2"},
              "pinned": {"jax": "0.12.0.1"}, "differs_from_pins": {"jax": {"here": "0.10.2", "pinned": "0.12.0.1"}},
              "pass": {"command": "python3 tools/machine/report.py", "wall_seconds": 1234.5, "calls": 3},
              "noise": {"tpu-hugepages": {"source": BY_ID["tpu-hugepages"].source,
                                          "reason": BY_ID["tpu-hugepages"].reason}} if noise else {},
              "counts": counts, "snippets": snippets}
    if notebook is not None:
        report["notebooks"] = [{"page": "sec/page", "programs": {row["snippet"]: row["sha256"] for row in snippets},
                                "outcome": "ok", "seconds": 41.6, "cells": 4, "restarts": 0, "differs": [],
                                "error": None, "problems": [], **notebook}]
    folder = project / "reports" / "machines"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "2026-12-05-tpu-v5-lite.json").write_text(json.dumps(report), encoding="utf-8")


def page(tmp_path, language: str, name: str = "sec/page") -> str:
    return (tmp_path / "out" / language / f"{name}.html").read_text(encoding="utf-8")


def text(markup: str) -> str:
    """What a reader sees: block tags end a word, inline tags (links, code, strong) do not."""
    markup = re.sub(r"</?(p|td|th|tr|li|ul|div|table|thead|tbody)\b[^>]*>", " ", markup)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", markup)).split())


def header_lines(markup: str) -> list[str]:
    return [text(line) for line in re.findall(r'<p class="kb-backend-run">(.*?)</p>', markup, re.S)]


def status_row(markup: str) -> str:
    """The text of the status table's row for sec/page (the target of the page's header line)."""
    row = re.search(r'<tr[^>]*>(?:(?!</tr>).)*id="kb-backends-sec-page".*?</tr>', markup, re.S)
    assert row is not None, markup
    return text(row.group(0))


def test_no_report_then_a_fresh_one_then_an_edit(fixture_project, build_project, tmp_path):
    """No report: no line, and the status page says "none yet" for both accelerators. A fresh
    report: every program ran, the line links to the page's row. An edited program: not run there."""
    project = with_status_page(fixture_project())
    none = build_project(project)
    assert none.returncode == 0, log(none)
    assert "kb-backend-run" not in page(tmp_path, "en")
    status = text(page(tmp_path, "en", "reference/backends"))
    assert "GPU: none yet." in status and "TPU: none yet." in status
    assert "This build" in status and "3 of 3 programs ran" in status_row(page(tmp_path, "en", "reference/backends"))

    tpu_report(project, notebook={})
    fresh = build_project(project)
    assert fresh.returncode == 0, log(fresh)
    assert header_lines(page(tmp_path, "en")) == ["TPU v5e, jax 0.10.2, 2026-12-05: 3 of 3 programs ran"]
    assert re.search(r'<a class="reference internal" href="\.\./reference/backends\.html#kb-backends-sec-page">',
                     page(tmp_path, "en")), "the header line does not link to the page's row"
    status = page(tmp_path, "en", "reference/backends")
    assert "TPU v5e, jax 0.10.2, 2026-12-05" in text(status) and "GPU: none yet." in text(status)
    assert "TPU: none yet." not in text(status)
    assert "Versions that differ from the pins: jax 0.10.2 (pinned 0.12.0.1)." in text(status)
    assert "python3 tools/machine/report.py" in text(status) and "20.6 min" in text(status)
    assert status_row(status).count("3 of 3 programs ran") == 2  # this build, and the TPU
    assert "Notebook, in one kernel: ran top to bottom in 42 s" in status_row(status)
    zh = build_project(project, language="zh_CN")
    assert zh.returncode == 0, log(zh)
    assert header_lines(page(tmp_path, "zh_CN")) == ["TPU v5e，jax 0.10.2，2026-12-05：3 个程序全部运行通过"]
    status = text(page(tmp_path, "zh_CN", "reference/backends"))
    assert "GPU：暂无。" in status
    # The machine and the versions worded in Chinese, without brackets inside brackets (review 2026-12c, C3, C4).
    assert "TPU v5e，jax 0.10.2，2026-12-05（TPU v5e，x86_64 Linux，13 核 CPU；Python 3.11.9）" in status, status
    assert "与本站固定版本不同的包：jax 0.10.2（本站固定版本为 0.12.0.1）。" in status, status
    assert "CPU cores" not in status and "TPU v5 lite" not in status
    assert "笔记本（单个内核）：从头运行到尾，用时 42 秒" in status_row(page(tmp_path, "zh_CN", "reference/backends"))

    snippet = project / "snippets" / "sec" / "jax_side.py"
    snippet.write_text(snippet.read_text(encoding="utf-8") + "# edited after the TPU pass\n", encoding="utf-8")
    stale = build_project(project)
    assert stale.returncode == 0, log(stale)
    assert header_lines(page(tmp_path, "en")) == [
        "TPU v5e, jax 0.10.2, 2026-12-05: 2 of 3 programs ran; 1 changed since the run"]
    row = status_row(page(tmp_path, "en", "reference/backends"))
    assert "changed since the run: sec/jax_side.py" in row and "3 of 3 programs ran" in row  # the build ran it
    assert "Notebook, in one kernel: changed since the run" in row  # it held the program as it was


def test_a_failing_program_and_platform_noise(fixture_project, build_project, tmp_path):
    """A failure is named on the page's line and, with its first error line and snippet:line, in
    the page's row; a program that fails as on the CPU with the same versions is "versions
    differ"; the noise the pass recorded is listed with the table's reason, translated."""
    project = with_status_page(fixture_project())
    tpu_report(project, noise=True, notebook={"outcome": "differs", "differs": ["snippets/sec/figure.py", "snippets/sec/jax_side.py"]},
               outcomes={
        "jax_side.py": ("failed", "AssertionError: total is not 6 (exit status 1)", 6),
        "figure.py": ("versions differ", "AttributeError: module 'jax' has no attribute 'Inline' (exit status 1)", 2)})
    en = build_project(project)
    assert en.returncode == 0, log(en)
    assert header_lines(page(tmp_path, "en")) == [
        "TPU v5e, jax 0.10.2, 2026-12-05: 1 of 3 programs ran; 1 failed, 1 versions differ"]
    status = page(tmp_path, "en", "reference/backends")
    row = status_row(status)
    assert "failed: sec/jax_side.py:6 AssertionError: total is not 6 (exit status 1)" in row, row
    assert "versions differ: sec/figure.py:2 AttributeError: module 'jax' has no attribute 'Inline'" in row, row
    assert ("Notebook, in one kernel: ran top to bottom in 42 s; 2 programs printed otherwise than when they ran alone: "
            "sec/figure.py, sec/jax_side.py") in row, row
    assert "Platform noise recorded in 2 programs, not counted as a failure: tpu-hugepages." in text(status)
    assert BY_ID["tpu-hugepages"].reason in text(status).replace("\u2019", "'")  # Sphinx's smart quotes
    zh = build_project(project, language="zh_CN")
    assert zh.returncode == 0, log(zh)
    assert header_lines(page(tmp_path, "zh_CN")) == [
        "TPU v5e，jax 0.10.2，2026-12-05：3 个程序中 1 个运行通过；1 个失败，1 个因版本不同而失败"]
    status = text(page(tmp_path, "zh_CN", "reference/backends"))
    assert "2 个程序记录到平台噪声 tpu-hugepages，不算失败。" in status and "虚拟机的内核设置" in status
    assert ("笔记本（单个内核）：从头运行到尾，用时 42 秒；其中 2 个程序的输出与单独运行时不同："
            "sec/figure.py、sec/jax_side.py") in status, status
    assert BY_ID["tpu-hugepages"].reason not in status
