"""Small projects under tests/fixtures, broken on purpose: each mistake fails the build or the
tests, with the page and the snippet (file and line) named. Builds use the site's own conf.py."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess

import polib
import pytest

from tools.catalogs import catalog_report, untranslated_figure_words
from tools.site import ROOT, broken_internal_links, page_figures, sphinx_command


SNIPPETS = ["snippets/sec/figure.py", "snippets/sec/jax_side.py", "snippets/sec/torch_side.py"]


def log(result):
    return result.stdout + result.stderr


def ran(out):
    """The snippets a build ran (its _kb_build.json)."""
    return sorted(json.loads((out / "_kb_build.json").read_text(encoding="utf-8"))["ran"])


def test_good_fixture_builds_in_both_languages_and_zh_executes_nothing(fixture_project, build_project, tmp_path):
    project = fixture_project()
    en = build_project(project, records=tmp_path / "records")
    assert en.returncode == 0, log(en)
    zh = build_project(project, language="zh_CN", records=tmp_path / "records")
    assert zh.returncode == 0, log(zh)
    report = json.loads((tmp_path / "out" / "zh_CN" / "_kb_build.json").read_text())
    assert report["ran"] == {}
    assert sorted(json.loads((tmp_path / "out" / "en" / "_kb_build.json").read_text())["ran"]) == SNIPPETS
    page = (tmp_path / "out" / "zh_CN" / "sec" / "page.html").read_text(encoding="utf-8")
    assert "一个页面" in page and "本页构建时的运行环境" in page
    assert "下载：" in page and "本页的程序（3 个）" in page  # the interface catalogue (kb.po) is applied
    # The program list is folded: a closed <details> whose summary counts the programs.
    folded = re.search(r"<details [^>]*class=\"[^\"]*kb-downloads[^>]*>", page)
    assert folded and " open" not in folded.group(0), folded
    assert page.index("本页的程序（3 个）") < page.index("</summary>") < page.index("kb-download-py")
    assert page.count('class="sd-tab-label"') == 2  # the two cells became one tab set
    assert not broken_internal_links(tmp_path / "out" / "zh_CN")
    # The figure is SVG with its words as text; the Chinese page shows a translated copy.
    figures = {lang: _figure(tmp_path / "out" / lang / "sec" / "page.html") for lang in ("en", "zh_CN")}
    assert ">A rising line</text>" in figures["en"] and ">step</text>" in figures["en"]
    assert ">一条上升的直线</text>" in figures["zh_CN"] and ">步数</text>" in figures["zh_CN"]
    assert "rising line" not in figures["zh_CN"]
    assert "kb-figure-strings" not in page and "一条上升的直线" not in page  # words only in the figure
    assert not untranslated_figure_words(tmp_path / "out", "zh_CN", project / "docs" / "locales")
    # Its alt text is the cell's :alt:, translated with the figure (not the image's file name).
    english = (tmp_path / "out" / "en" / "sec" / "page.html").read_text(encoding="utf-8")
    assert re.search(r'<img alt="A straight line that rises over three steps\." src="[^"]+\.svg"', english), english
    assert re.search(r'<img alt="一条随步数上升的直线，共三步。" src="[^"]+\.zh_CN\.svg"', page), page
    # The Chinese page's notebook: its prose from the translated page, the same code cells and outputs.
    notebooks = {lang: json.loads((tmp_path / "out" / lang / "_kb" / "notebooks" / "sec" / "page.ipynb")
                                  .read_text(encoding="utf-8"))["cells"] for lang in ("en", "zh_CN")}
    prose = {lang: "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
             for lang, cells in notebooks.items()}
    assert "# A page" in prose["en"] and "Some text." in prose["en"]
    assert "# 一个页面" in prose["zh_CN"] and "一些文字。" in prose["zh_CN"] and "## 第二节" in prose["zh_CN"]
    for english in ("A page", "Some text", "Second section", "Back to", "A figure", "Run this notebook"):
        assert english not in prose["zh_CN"], english
    programs = {lang: [{**c, "id": None} for c in cells if "load" in c["metadata"]] for lang, cells in notebooks.items()}
    assert len(programs["en"]) == 3 and programs["en"] == programs["zh_CN"]
    assert all(c["outputs"] for c in programs["zh_CN"])


def _figure(page):
    """The text of the one SVG figure a built page shows."""
    [svg] = page_figures(page)
    assert svg.suffix == ".svg", svg
    return svg.read_text(encoding="utf-8")


def test_figure_words_reach_the_catalogue_and_untranslated_ones_are_found(fixture_project, build_project, tmp_path):
    """gettext extracts a figure's words from the executed page; a word left untranslated shows
    in English on the Chinese page, and the check names it."""
    project = fixture_project()
    assert build_project(project).returncode == 0
    pot = build_project(project, builder="gettext", out=tmp_path / "pot")
    assert pot.returncode == 0, log(pot)
    messages = {e.msgid: e.occurrences for e in polib.pofile(str(tmp_path / "pot" / "sec" / "page.pot"))}
    assert {"A rising line", "step", "rising line"} <= set(messages)
    [(file, line)] = messages["step"]  # located at the figure's cell (its fence is lines 29-31)
    assert file.endswith("sec/page.md") and 29 <= int(line) <= 32, messages["step"]
    assert "A straight line that rises over three steps." in messages  # the alt text, to translate
    assert not any("Executed at build time" in m or m.startswith("Download") for m in messages)

    _edit_translation(project, "step", lambda entry: setattr(entry, "msgstr", ""))
    zh = build_project(project, language="zh_CN")
    assert zh.returncode == 0, log(zh)
    problems = untranslated_figure_words(tmp_path / "out", "zh_CN", project / "docs" / "locales")
    assert len(problems) == 1 and "'step' untranslated" in problems[0], problems


def test_gettext_refuses_to_execute(fixture_project, build_project, tmp_path):
    """The gettext builder reads figure outputs from the records; it never runs a snippet itself."""
    result = build_project(fixture_project(), builder="gettext", out=tmp_path / "pot", records=tmp_path / "records")
    assert result.returncode != 0
    assert "the gettext builder reads outputs from the records" in log(result), log(result)


def test_chinese_build_refuses_to_execute(fixture_project, build_project, tmp_path):
    zh = build_project(fixture_project(), language="zh_CN", records=tmp_path / "records")
    assert zh.returncode != 0
    assert "must not execute" in log(zh) and "sec/page" in log(zh)


def test_language_missing_from_the_table_stops_the_build(fixture_project, build_project):
    result = build_project(fixture_project(), language="fr")
    assert result.returncode != 0
    assert "'fr' is not in kb_languages (conf.py)" in log(result), log(result)


# Broken programs, one page each, all in ONE fixture build per test process (a build costs
# seconds; these cases once took ten): the build must name every page, snippet and line, and
# one broken page hides none of the others (test_one_broken_snippet_does_not_hide_another shows
# the same inside one page). The build runs with a 5 s timeout, a variable only the build sets,
# and the folder of the pages as its working directory: a program that leans on any of them fails.
BROKEN_PROGRAMS = {
    "raises": ('"""Raises."""\nx = 1\nraise ValueError("boom")\n', 3, "ValueError: boom"),
    "assertion": ('"""Fails its claim."""\ntotal = 5\nassert total == 6, "total is not 6"\n', 3,
                  "AssertionError: total is not 6"),
    "hangs": ('"""Hangs."""\nimport time\n\nwhile True:\n    time.sleep(0.1)\n', None, "still running after the 5 s timeout"),
    "future_warning": ('"""Deprecated."""\nimport warnings\n\nwarnings.warn("this API is old", FutureWarning)\nprint(1)\n', 4,
                       "FutureWarning: this API is old"),
    "prints_nothing": ('"""Silent."""\nx = 1\nassert x == 1\n', None, "printed nothing"),
    # Each snippet runs as a reader runs it: a fresh process, an empty working directory, none of
    # the build's variables.
    "build_variable": ('"""Reads a variable only the build sets."""\nimport os\n\nprint(os.environ["KB_ONLY_IN_THE_BUILD"])\n', 4,
                       "KeyError: 'KB_ONLY_IN_THE_BUILD'"),
    "working_directory": ('"""Expects the folder of its page as working directory."""\nfrom pathlib import Path\n\n'
                          'print(Path("page.md").read_text())\n', 4, "FileNotFoundError"),
    "name_from_another_cell": ('"""Uses a name from the cell before it."""\nassert total == 6\nprint(total)\n', 2,
                               "NameError: name 'total' is not defined"),
    "warns": ('"""Warns."""\nimport warnings\n\nwarnings.warn("this looks wrong", UserWarning)\nprint(1)\n', 4,
              "UserWarning: this looks wrong"),
    "measures": ('"""Measures."""\nratio = 1.8\nprint(f"measured ratio {ratio}")\nassert ratio > 2\n', 4, "AssertionError"),
}
PAGE = """---
file_format: mystnb
kernelspec:
  name: python3
  display_name: Python 3
---

# {title}

Text.

```{{code-cell}} python
:load: ../../snippets/sec/{snippet}
```
"""


def _add_pages(project, pages: dict[str, str]) -> None:
    """Add pages ``sec/<name>.md`` (their text) to the fixture project's toctree."""
    index = project / "docs" / "index.md"
    names = "".join(f"sec/{name}\n" for name in pages)
    index.write_text(index.read_text().replace("sec/zz-notes\n", f"sec/zz-notes\n{names}"))
    for name, text in pages.items():
        (project / "docs" / "sec" / f"{name}.md").write_text(text)


@pytest.fixture(scope="module")
def broken_programs_log(tmp_path_factory, shared_records):
    project = tmp_path_factory.mktemp("broken") / "good"
    shutil.copytree(ROOT / "tests" / "fixtures" / "good", project)
    for name, (code, _, _) in BROKEN_PROGRAMS.items():
        (project / "snippets" / "sec" / f"case_{name}.py").write_text(code)
    _add_pages(project, {f"case_{name}": PAGE.format(title=name, snippet=f"case_{name}.py") for name in BROKEN_PROGRAMS})
    out = project.parent / "out"
    args = sphinx_command(project / "docs", out / "en", doctrees=out / "doctrees", cache=shared_records)
    result = subprocess.run(args, capture_output=True, text=True, timeout=600, cwd=project / "docs" / "sec",
                            env={**os.environ, "KB_SNIPPET_TIMEOUT": "5", "KB_ONLY_IN_THE_BUILD": "1"})
    assert result.returncode != 0, log(result)
    return log(result)


@pytest.mark.parametrize("name", [n for n in BROKEN_PROGRAMS if n not in ("warns", "measures")])
def test_failing_snippet_fails_the_build_naming_page_snippet_line(broken_programs_log, name):
    _, line, message = BROKEN_PROGRAMS[name]
    text = broken_programs_log
    where = f"snippets/sec/case_{name}.py" + (f":{line}" if line else "")
    assert re.search(rf"case_{name}\.md: ERROR: page sec/case_{name} failed to execute, in snippet {re.escape(where)}\b",
                     text), text
    assert message in text, text


def test_every_broken_page_is_named_and_the_good_page_is_not(broken_programs_log):
    listed = re.search(r"snippets that failed: (.*)", broken_programs_log)
    assert listed, broken_programs_log
    named = re.findall(r"snippets/sec/\w+\.py", listed.group(1))  # (Sphinx colours the line under CI=true)
    assert sorted(named) == sorted(f"snippets/sec/case_{name}.py" for name in BROKEN_PROGRAMS), listed.group(1)


def test_failed_assert_is_shown_with_what_the_snippet_printed_before_it(broken_programs_log):
    """A measured claim that fails in CI can only be judged next to the numbers it printed."""
    text = broken_programs_log
    assert "what snippets/sec/case_measures.py printed last:" in text, text
    assert "stdout: measured ratio 1.8" in text and "stderr: AssertionError" in text, text


def test_a_build_that_expects_a_gpu_fails_on_a_cpu_fallback(fixture_project, build_project):
    """On a GPU machine a program that silently fell back to the CPU would print CPU figures on
    pages built "on the GPU": a build told to expect gpu (KB_EXPECT_BACKEND, as nox -s docs-gpu
    sets it) fails, naming the program; this CPU machine is such a fallback."""
    project = fixture_project()
    result = build_project(project, env={"KB_EXPECT_BACKEND": "gpu"})
    assert result.returncode != 0
    text = log(result)
    assert "snippet snippets/sec/jax_side.py ran on the cpu backend, but this build expects gpu" in text, text
    assert "torch_side.py ran on" not in text  # it starts no JAX backend: nothing to check
    assert build_project(project, env={"KB_EXPECT_BACKEND": "cpu"}).returncode == 0


def test_a_cpu_by_design_program_is_not_held_to_the_expected_backend(fixture_project, build_project):
    project = fixture_project()
    snippet = project / "snippets" / "sec" / "jax_side.py"
    snippet.write_text(snippet.read_text().replace(
        '"""Sum in JAX."""\n',
        '"""Sum in JAX."""\nimport os\n\nos.environ["JAX_PLATFORMS"] = "cpu"  # CPU by design: a test of the marker\n'))
    result = build_project(project, env={"KB_EXPECT_BACKEND": "gpu"})
    assert result.returncode == 0, log(result)


def test_snippet_that_warns_fails_the_build_naming_snippet_and_warning(broken_programs_log):
    text = broken_programs_log
    expected = ("page sec/case_warns: snippet snippets/sec/case_warns.py wrote to stderr",
                "snippets/sec/case_warns.py:4: UserWarning: this looks wrong")
    assert all(part in text for part in expected), text
    assert "ipykernel_" not in text and "/tmp/" not in text.split("case_warns.py wrote to stderr")[1].split("\n")[0], text


def test_one_broken_snippet_does_not_hide_another(fixture_project, build_project, tmp_path):
    project = fixture_project()
    (project / "snippets" / "sec" / "jax_side.py").write_text('"""Raises."""\nraise ValueError("first")\n')
    (project / "snippets" / "sec" / "torch_side.py").write_text('"""Raises."""\nraise KeyError("second")\n')
    result = build_project(project)
    text = log(result)
    assert result.returncode != 0
    assert "snippets/sec/jax_side.py:2: ValueError: first" in text and "snippets/sec/torch_side.py:2: KeyError" in text
    assert "snippets that failed: snippets/sec/jax_side.py, snippets/sec/torch_side.py" in text, text


def test_editing_one_snippet_runs_only_that_snippet(fixture_project, build_project, tmp_path):
    project = fixture_project()
    own = tmp_path / "records"
    assert build_project(project, records=own).returncode == 0
    assert ran(tmp_path / "out" / "en") == SNIPPETS
    again = build_project(project, records=own)
    assert again.returncode == 0 and ran(tmp_path / "out" / "en") == []
    side = project / "snippets" / "sec" / "jax_side.py"
    side.write_text(side.read_text() + "# edited\n")
    edited = build_project(project, records=own)
    assert edited.returncode == 0, log(edited)
    assert ran(tmp_path / "out" / "en") == ["snippets/sec/jax_side.py"]


def test_two_shards_then_a_render_that_runs_nothing(fixture_project, build_project, tmp_path):
    """Two shards each run their part and write records; a render given both folders runs no
    snippet, and its page equals a one-machine build apart from the provenance line's numbers."""
    import subprocess
    import sys

    from tools.site import ROOT

    project = fixture_project()
    one = build_project(project, out=tmp_path / "one" / "en")
    assert one.returncode == 0, log(one)
    shards = []
    for k in (1, 2):
        folder = tmp_path / f"shard-{k}"
        result = subprocess.run([sys.executable, "-m", "tools.shards", "--shard", f"{k}/2", "--out", str(folder),
                                 "--docs", str(project / "docs"), "--store", str(tmp_path / "empty")],
                                capture_output=True, text=True, cwd=ROOT)
        assert result.returncode == 0, log(result)
        shards.append(sorted(p.name.rsplit("-", 1)[0] for p in folder.rglob("*.json")))
    assert sorted(shards[0] + shards[1]) == ["figure", "jax_side", "torch_side"] and all(shards), shards
    store = tmp_path / "gathered"
    imported = subprocess.run([sys.executable, "-m", "tools.shards", "--import", str(tmp_path / "shard-1"),
                               str(tmp_path / "shard-2"), "--store", str(store)], capture_output=True, text=True, cwd=ROOT)
    assert imported.returncode == 0 and "imported 3 records" in imported.stdout, log(imported)
    render = build_project(project, out=tmp_path / "render" / "en", records=store, extra=("-D", "kb_mode=render"))
    assert render.returncode == 0, log(render)
    assert ran(tmp_path / "render" / "en") == []

    def page(out):
        text = (out / "sec" / "page.html").read_text(encoding="utf-8")
        return re.sub(r"\d+(\.\d+)? s in all", "# s in all", text)

    assert page(tmp_path / "render" / "en") == page(tmp_path / "one" / "en")


def test_a_render_refuses_to_run_a_snippet_without_a_record(fixture_project, build_project, tmp_path):
    result = build_project(fixture_project(), records=tmp_path / "nothing", extra=("-D", "kb_mode=render"))
    assert result.returncode != 0
    assert "has no record, and this build (kb_mode is render: it renders records made elsewhere)" in log(result)


# Pages with a mistake in their markup, one page each, in ONE fixture build per test process.
BROKEN_PAGES = {
    "case_inline": PAGE.replace(":load: ../../snippets/sec/{snippet}\n", "print('inline')\n"),
    # A figure must say what it shows to a reader who cannot see it (kb.figures): without ``:alt:``
    # the image's alt text would be its file name.
    "case_noalt": PAGE,
    "case_outside": PAGE.replace("../../snippets/sec/{snippet}", "elsewhere.py"),
    "case_typo": PAGE.replace("{snippet}", "jax_sde.py"),
    "case_link_ref": PAGE + "\nSee {{ref}}`no-such-label`.\n",
    "case_link_page": PAGE + "\nSee [gone](missing.md).\n",
    "case_link_anchor": PAGE + "\nSee [gone](page.md#no-such-anchor).\n",
    # kb.differences: a ':differs-from:' that names no program, or the cell's own.
    "case_differs_missing": PAGE.replace(":load: ../../snippets/sec/{snippet}\n",
                                         ":load: ../../snippets/sec/{snippet}\n:differs-from: ../../snippets/sec/gone.py\n"),
    "case_differs_self": PAGE.replace(":load: ../../snippets/sec/{snippet}\n",
                                      ":load: ../../snippets/sec/{snippet}\n:differs-from: ../../snippets/sec/{snippet}\n"),
}


@pytest.fixture(scope="module")
def broken_pages_log(tmp_path_factory, shared_records):
    project = tmp_path_factory.mktemp("broken-pages") / "good"
    shutil.copytree(ROOT / "tests" / "fixtures" / "good", project)
    (project / "docs" / "sec" / "elsewhere.py").write_text('"""x"""\nassert 1 + 1 == 2\nprint(2)\n')
    snippet = {"case_noalt": "figure.py"}
    _add_pages(project, {name: text.format(title=name, snippet=snippet.get(name, "jax_side.py"))
                         for name, text in BROKEN_PAGES.items()})
    out = project.parent / "out"
    result = subprocess.run(sphinx_command(project / "docs", out / "en", doctrees=out / "doctrees", cache=shared_records),
                            capture_output=True, text=True, timeout=600)
    assert result.returncode != 0, log(result)
    return log(result)


def test_inline_code_cell_fails_the_build(broken_pages_log):
    assert re.search(r"sec/case_inline\.md:\d+: ERROR: code cell without ':load:'.* \(page sec/case_inline\)",
                     broken_pages_log), broken_pages_log


def test_a_figure_without_alt_text_fails_the_build(broken_pages_log):
    assert re.search(r"sec/case_noalt\.md:\d+: WARNING: a figure needs alt text: add ':alt: ", broken_pages_log), broken_pages_log


def test_load_from_outside_snippets_fails_the_build(broken_pages_log):
    assert re.search(r"case_outside\.md.*is outside", broken_pages_log), broken_pages_log


def test_misspelled_load_names_page_line_and_the_closest_snippet(broken_pages_log):
    """A typo in ``:load:`` is reported at the page and line, with a suggestion, before MyST-NB reads
    the page (MyST-NB alone stops with a traceback that names neither)."""
    line = BROKEN_PAGES["case_typo"].split("\n").index(":load: ../../snippets/sec/jax_sde.py")  # 1-based line of the fence
    expected = (rf"sec/case_typo\.md:{line}: ERROR: ':load: \.\./\.\./snippets/sec/jax_sde\.py' does not exist; "
                rf"did you mean jax_side\.py\? \(page sec/case_typo\)")
    assert re.search(expected, broken_pages_log), broken_pages_log
    assert "Traceback" not in broken_pages_log and "parallel build error" not in broken_pages_log.lower(), broken_pages_log


@pytest.mark.parametrize("page", ["case_link_ref", "case_link_page", "case_link_anchor"])
def test_missing_internal_link_or_anchor_fails_the_build(broken_pages_log, page):
    assert re.search(rf"sec/{page}\.md(:\d+)?: (WARNING|ERROR): ", broken_pages_log), broken_pages_log


def test_differs_from_with_a_missing_or_the_own_program_fails_the_build(broken_pages_log):
    assert re.search(r"sec/case_differs_missing\.md:\d+: WARNING: ':differs-from: \.\./\.\./snippets/sec/gone\.py' does not exist",
                     broken_pages_log), broken_pages_log
    assert re.search(r"sec/case_differs_self\.md:\d+: WARNING: ':differs-from: .*' names the cell's own program",
                     broken_pages_log), broken_pages_log


def test_differs_from_highlights_the_changed_lines_in_both_languages(fixture_project, build_project, tmp_path):
    """kb.differences: the lines of a cell's program that differ from another program are highlighted,
    and a line above the code says how many, against which program, in the build's language."""
    project = fixture_project()
    base = (project / "snippets" / "sec" / "jax_side.py").read_text()
    changed = base.replace("jnp.arange(4).sum()", "jnp.arange(4).sum()  # the one changed line")
    assert changed != base
    (project / "snippets" / "sec" / "jax_variant.py").write_text(changed)
    _add_pages(project, {"variant": PAGE.format(title="Variant", snippet="jax_variant.py").replace(
        ":load: ../../snippets/sec/jax_variant.py\n",
        ":load: ../../snippets/sec/jax_variant.py\n:differs-from: ../../snippets/sec/jax_side.py\n")})
    assert build_project(project).returncode == 0
    zh_build = build_project(project, language="zh_CN")
    assert zh_build.returncode == 0, log(zh_build)
    en = (tmp_path / "out" / "en" / "sec" / "variant.html").read_text(encoding="utf-8")
    zh = (tmp_path / "out" / "zh_CN" / "sec" / "variant.html").read_text(encoding="utf-8")
    highlighted = re.findall(r'<span class="hll">(.*?)\n</span>', en)
    assert len(highlighted) == 1 and "the one changed line" in re.sub(r"<[^>]+>", "", highlighted[0]), highlighted
    note = lambda html: re.sub(r"<[^>]+>", "", re.search(r'<p class="kb-differs-from">(.*?)</p>', html, re.S).group(1))  # noqa: E731
    assert note(en) == "Highlighted: the line that differs from jax_side.py.", note(en)
    assert note(zh) == "高亮的一行与 jax_side.py 不同。", note(zh)
    assert 'href="page.html"' in re.search(r'<p class="kb-differs-from">(.*?)</p>', en, re.S).group(1)  # the page that shows it


def _edit_translation(project, old, new):
    po = project / "docs" / "locales" / "zh_CN" / "LC_MESSAGES" / "sec" / "page.po"
    catalog = polib.pofile(str(po))
    for entry in catalog:
        if entry.msgid == old:
            new(entry)
            break
    else:
        raise AssertionError(f"fixture has no msgid {old!r}")
    catalog.save()
    return po


def test_broken_markup_in_translation_fails_build_and_tests(fixture_project, build_project):
    project = fixture_project()
    msgid = "Back to {ref}`fixture-page`."

    def breaks(entry):
        entry.msgstr = "返回 {ref}`fixture-page。"  # closing backquote lost

    po = _edit_translation(project, msgid, breaks)
    problems = catalog_report(po).broken
    assert problems and "unbalanced backquotes" in problems[0][1][0]
    assert [file for file, _ in problems[0][0].occurrences] == ["docs/sec/page.md"]
    en = build_project(project)
    assert en.returncode == 0, log(en)
    zh = build_project(project, language="zh_CN")
    assert zh.returncode != 0
    assert "page.md" in log(zh) and "inconsistent" in log(zh), log(zh)


@pytest.mark.parametrize("kind", ["untranslated", "fuzzy"])
def test_untranslated_or_fuzzy_string_fails_the_tests(fixture_project, kind):
    project = fixture_project()

    def spoil(entry):
        if kind == "fuzzy":
            entry.flags.append("fuzzy")
        else:
            entry.msgstr = ""

    po = _edit_translation(project, "Some text.", spoil)
    report = catalog_report(po)
    spoiled = report.fuzzy if kind == "fuzzy" else report.untranslated
    assert [e.msgid for e in spoiled] == ["Some text."]
    assert any("page.md" in file for file, _ in spoiled[0].occurrences)


def test_link_checker_finds_a_missing_anchor_in_html(tmp_path):
    (tmp_path / "a.html").write_text('<a href="b.html#there">x</a><a href="b.html#nowhere">y</a><a href="c.html">z</a>')
    (tmp_path / "b.html").write_text('<h1 id="there">B</h1>')
    assert broken_internal_links(tmp_path) == ["a.html: b.html#nowhere -> no anchor #nowhere",
                                              "a.html: c.html -> missing file"]


def test_deployment_base_url_gives_sitemap_og_url_and_404_paths(fixture_project, build_project, tmp_path):
    """With KB_BASE_URL (a deployment), sphinx-sitemap lists each page with its alternates in every
    language, Open Graph names the page's address, and the 404 page's links live under the base
    path; without it (a local build) there is no sitemap, since one needs absolute addresses."""
    project = fixture_project()
    local = build_project(project)
    assert local.returncode == 0, log(local)
    assert not (tmp_path / "out" / "en" / "sitemap.xml").exists()
    for language in ("en", "zh_CN"):
        result = build_project(project, language=language, out=tmp_path / "site" / language,
                               env={"KB_BASE_URL": "https://kb.example.org/docs/"})
        assert result.returncode == 0, log(result)
    sitemap = (tmp_path / "site" / "zh_CN" / "sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://kb.example.org/docs/zh_CN/sec/page.html</loc>" in sitemap, sitemap
    assert 'hreflang="en" href="https://kb.example.org/docs/en/sec/page.html"' in sitemap, sitemap
    assert 'hreflang="zh-CN" href="https://kb.example.org/docs/zh_CN/sec/page.html"' in sitemap, sitemap
    page = (tmp_path / "site" / "zh_CN" / "sec" / "page.html").read_text(encoding="utf-8")
    assert '<meta property="og:url" content="https://kb.example.org/docs/zh_CN/sec/page.html"' in page
    assert '<meta property="og:locale" content="zh_CN">' in page
    assert '<meta property="og:site_name" content="写给 PyTorch 用户的 JAX 指南"' in page
    [description] = re.findall(r'<meta name="description" content="([^"]*)"', page)
    assert description == "一些文字。", description  # the first paragraph of prose, in Chinese
    missing = (tmp_path / "site" / "zh_CN" / "404.html").read_text(encoding="utf-8")
    assert 'href="/docs/zh_CN/index.html"' in missing and "页面不存在" in missing
    assert re.search(r'href="/docs/zh_CN/_static/kb\.css', missing)


def test_a_page_is_read_again_when_its_record_is_replaced(fixture_project, build_project, tmp_path):
    """A record made again for the same snippet (after a failed run, or imported from a shard)
    reaches the page in the next build, though the snippet itself did not change."""
    project = fixture_project()
    own = tmp_path / "records"
    assert build_project(project, records=own).returncode == 0
    [record] = own.glob("sec/jax_side-*.json")
    data = json.loads(record.read_text(encoding="utf-8"))
    data["stdout"] = data["stdout"].replace("6", "6 (from a newer record)")
    record.write_text(json.dumps(data), encoding="utf-8")
    again = build_project(project, records=own)
    assert again.returncode == 0, log(again)
    assert ran(tmp_path / "out" / "en") == []
    assert "(from a newer record)" in (tmp_path / "out" / "en" / "sec" / "page.html").read_text(encoding="utf-8")


def test_a_warm_build_reads_no_page_until_a_floor_report_is_added(fixture_project, build_project, tmp_path):
    """An unchanged project is not read again (a folder among a page's dependencies made Sphinx
    read every page in every build); a floor report added since the last build reads them all."""
    from tools.site import ROOT

    project = fixture_project()
    shutil.copyfile(ROOT / "requirements.txt", project / "requirements.txt")  # kb.floors reads the pins
    doctree = tmp_path / "out" / "doctrees-en-html" / "sec" / "page.doctree"
    assert build_project(project).returncode == 0
    first = doctree.stat().st_mtime_ns
    again = build_project(project)
    assert again.returncode == 0, log(again)
    assert doctree.stat().st_mtime_ns == first, "a build with nothing changed read the page again"
    floors = project / "docs" / "_data" / "floors"
    floors.mkdir(parents=True)
    shutil.copyfile(next((ROOT / "docs" / "_data" / "floors").glob("jax-*.json")), floors / "jax-0.11.2.json")
    added = build_project(project)
    assert added.returncode == 0, log(added)
    assert doctree.stat().st_mtime_ns != first, "a new floor report did not reach the page"


def test_the_floors_table_follows_an_edited_program_in_a_warm_build(fixture_project, build_project, tmp_path):
    """{kb-floors-table} reads every page's programs: editing one reaches the table's page in the
    next build (the program's floor is withdrawn until the canary checks it again)."""
    import hashlib

    from tools.site import ROOT

    project = fixture_project()
    shutil.copyfile(ROOT / "requirements.txt", project / "requirements.txt")  # kb.floors reads the pins
    snippet = project / "snippets" / "sec" / "jax_side.py"
    floors = project / "docs" / "_data" / "floors"
    floors.mkdir(parents=True)
    checked = {f"snippets/sec/{name}": {"sha256": hashlib.sha256((project / "snippets" / "sec" / name).read_bytes()).hexdigest(),
                                        "status": "pass" if name == "jax_side.py" else "not affected"}
               for name in ("figure.py", "jax_side.py", "torch_side.py")}  # every program of the page
    report = {"format": 2, "package": "jax", "version": "0.11.2", "date": "2026-12-02", "machine": "test",
              "python": "3.12.1", "asked": [], "changed": {}, "install": {}, "snippets": checked,
              "requires": {"jax": {"version": "0.11.2", "requires": []}}, "conflicts": {}}  # kb.floors.impossible
    (floors / "jax-0.11.2.json").write_text(json.dumps(report), encoding="utf-8")
    index = project / "docs" / "index.md"  # the table, under the label the pages' floor line links to
    index.write_text(index.read_text(encoding="utf-8") + "\n(ref-migration-floors)=\n## Floors\n\n```{kb-floors-table}\n```\n", encoding="utf-8")
    table = lambda: (tmp_path / "out" / "en" / "index.html").read_text(encoding="utf-8")  # noqa: E731
    first = build_project(project)
    assert first.returncode == 0, log(first)
    assert "sec/page" in table() and "0.11.2" in table(), table()
    snippet.write_text(snippet.read_text(encoding="utf-8") + "# edited since the floor walk\n", encoding="utf-8")
    again = build_project(project)
    assert again.returncode == 0, log(again)
    assert "0.11.2" not in table(), "the floors table still shows a floor checked before the program's edit"


def _machine_report(project, snippet: str, backend: str, stdout: str) -> None:
    import hashlib

    folder = project / "reports" / "machines"
    folder.mkdir(parents=True)
    digest = hashlib.sha256((project / snippet).read_bytes()).hexdigest()
    report = {"date": "2026-12-02T01:00:00+00:00", "machine": "Linux x86_64, 16 CPU cores, NVIDIA H200",
              "backends": [backend], "differs_from_pins": {"jax": {"here": "0.11.2", "pinned": "0.12.0.1"}},
              "snippets": [{"snippet": snippet, "sha256": digest, "outcome": "ok", "backend": backend,
                            "packages": {"jax": "0.11.2"}, "stdout": stdout}]}
    (folder / "2026-12-02-x86-64-nvidia-h200.json").write_text(json.dumps(report))


def test_a_reported_gpu_run_of_a_timing_snippet_is_shown_beside_it_and_only_while_unchanged(
        fixture_project, build_project, tmp_path):
    project = fixture_project()
    snippet = project / "snippets" / "sec" / "jax_side.py"
    snippet.write_text(snippet.read_text().replace(
        '"""Sum in JAX."""\n', '"""Sum in JAX."""\n# The timings this program prints differ from run to run and from '
        'machine to machine.\n'))
    _machine_report(project, "snippets/sec/jax_side.py", "gpu", "6 in 0.01 ms on the H200\n")
    assert build_project(project).returncode == 0
    assert build_project(project, language="zh_CN").returncode == 0
    en = (tmp_path / "out" / "en" / "sec" / "page.html").read_text(encoding="utf-8")
    zh = (tmp_path / "out" / "zh_CN" / "sec" / "page.html").read_text(encoding="utf-8")
    assert "On another machine (Linux x86_64, 16 CPU cores, NVIDIA H200; backend gpu; jax 0.11.2, not the pinned " \
           "0.12.0.1; 2026-12-02), the same program printed:" in en, en
    assert "6 in 0.01 ms on the H200" in en and "6 in 0.01 ms on the H200" in zh
    # The machine from its parts, in Chinese (kb.machines), never the report's English (review 2026-12c, C1).
    assert "机器：NVIDIA H200，x86_64 Linux，16 核 CPU；后端：gpu；版本：jax 0.11.2（本站固定版本为 0.12.0.1）" in zh, zh
    assert "CPU cores" not in zh and "Linux x86_64" not in zh
    assert en.count("kb-accelerator-run") == 1  # beside its own cell only: torch_side prints no timings

    snippet.write_text(snippet.read_text() + "# edited: the report ran another program\n")
    assert build_project(project).returncode == 0
    en = (tmp_path / "out" / "en" / "sec" / "page.html").read_text(encoding="utf-8")
    assert "6 in 0.01 ms on the H200" not in en and "kb-accelerator-run" not in en


def test_a_reported_figure_is_shown_in_its_box_with_translated_words_and_alt_text(fixture_project, build_project, tmp_path):
    """A timing program's figure from another machine (the report row's SVG) is shown in that run's
    box, in both languages: its words and the cell's alt text are translated like the cell's own figure."""
    import re

    project = fixture_project()
    snippet = project / "snippets" / "sec" / "figure.py"
    snippet.write_text(snippet.read_text() + "# The timings this program prints differ from run to run and from "
                       "machine to machine.\n")
    _machine_report(project, "snippets/sec/figure.py", "tpu", "values: [1.0, 2.0, 3.0] on the TPU\n")
    report = next((project / "reports" / "machines").glob("*.json"))
    data = json.loads(report.read_text())
    data["snippets"][0]["figures"] = ['<svg xmlns="http://www.w3.org/2000/svg" width="90" height="40">'
                                      '<text x="1" y="15">A rising line</text><text x="1" y="30">step</text></svg>']
    report.write_text(json.dumps(data))
    assert build_project(project).returncode == 0
    zh_build = build_project(project, language="zh_CN")
    assert zh_build.returncode == 0, log(zh_build)
    for language, alt, word in (("en", "A straight line that rises over three steps.", "A rising line"),
                                ("zh_CN", "一条随步数上升的直线，共三步。", "一条上升的直线")):
        out = tmp_path / "out" / language
        page = (out / "sec" / "page.html").read_text(encoding="utf-8")
        box = page[page.index('class="kb-accelerator-run'):]
        images = re.findall(r'<img alt="([^"]*)" src="([^"]*\.svg)"', box)
        assert images, box
        (found_alt, src), = images[:1]
        assert found_alt == alt, (language, found_alt)
        svg = (out / "sec" / src).resolve().read_text(encoding="utf-8")
        assert word in svg and "on the TPU" in box, (language, svg)


def test_a_cpu_only_report_shows_nothing(fixture_project, build_project, tmp_path):
    project = fixture_project()
    snippet = project / "snippets" / "sec" / "jax_side.py"
    snippet.write_text(snippet.read_text() + "# The timings this program prints differ from run to run and from "
                       "machine to machine.\n")
    _machine_report(project, "snippets/sec/jax_side.py", "cpu", "6 on a CPU\n")
    assert build_project(project).returncode == 0
    assert "kb-accelerator-run" not in (tmp_path / "out" / "en" / "sec" / "page.html").read_text(encoding="utf-8")
