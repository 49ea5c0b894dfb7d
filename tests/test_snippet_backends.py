"""Every snippet runs on the reader's hardware (kb.expected_backend): no platform pin without its reason,
one pattern for programs that need several devices, and a build that knows which backend it used."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tools.site import DOCS, LOCALES, SNIPPETS, TRANSLATIONS

from kb.expected_backend import MARKER, cpu_by_design, pins  # noqa: E402 (tools.site: docs/_ext importable)
from kb.run.plan import FRONT_MATTER_RE, scan_code_cells  # noqa: E402

SNIPPET_FILES = sorted(SNIPPETS.rglob("*.py"))
# The multi-device pattern (CONTRIBUTING.md, DETAILS.md): the first 8, 4 or 2 accelerators, else the emulated CPU
# devices that the program asked for (its JAX_NUM_CPU_DEVICES).
PATTERN = re.compile(r'devices = next\(\(jax\.devices\(\)\[:k\] for k in \(8, 4, 2\) if jax\.device_count\(\) >= k\), '
                     r'jax\.devices\("cpu"\)\[:(\d+)\]\)')


def _id(path):
    return str(path.relative_to(SNIPPETS))


def test_no_snippet_pins_a_platform_without_its_reason():
    """A copied program runs on the reader's GPU or TPU: it pins the CPU only where the CPU is its
    subject, and that line says why (``# CPU by design: <reason>``). Every offender is listed."""
    bad = [f"{path.relative_to(SNIPPETS.parent)}:{n}: {line}"
           for path in SNIPPET_FILES for n, line, reason in pins(path.read_text()) if not reason]
    assert not bad, (f"{len(bad)} lines pin a platform without a reason; remove the pin, or end the line with "
                     f"'{MARKER} <why the CPU is this program's subject>':\n" + "\n".join(bad))


# A page's lines by kind: "cell" (a code cell), "heading", "prose", "blank", and "other" (fences,
# their options, labels, table rows, and the lines of fences that hold no prose).
FENCE = re.compile(r"^\s*(`{3,}|~{3,}|:{3,})\s*(\{[\w-]+\})?")
PROSE_FENCES = ("{admonition}", "{note}", "{tip}", "{warning}", "{important}", "{seealso}")
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _line_kinds(text: str) -> list[str]:
    lines = text.split("\n")
    kinds = ["other"] * len(lines)
    for cell in scan_code_cells(text):
        kinds[cell["line"] - 1:cell["end"]] = ["cell"] * (cell["end"] - cell["line"] + 1)
    head = FRONT_MATTER_RE.match(text)
    fences: list[tuple[str, bool]] = []  # each open fence outside the cells, and whether it holds prose
    for i in range(head.group(0).count("\n") if head else 0, len(lines)):
        if kinds[i] == "cell":
            continue
        line = lines[i]
        fence = FENCE.match(line)
        if fence and fences and line.strip() == fences[-1][0]:
            fences.pop()
        elif fences and not fences[-1][1]:
            continue
        elif fence:
            fences.append((fence.group(1), fence.group(2) in PROSE_FENCES))
        elif not line.strip():
            kinds[i] = "blank"
        elif re.match(r"#{1,6} ", line):
            kinds[i] = "heading"
        elif not re.match(r"\s*(:[\w-]+:|\||\(.*\)=$)", line):
            kinds[i] = "prose"
    return kinds


def paragraphs(text: str) -> list[tuple[int, str]]:
    """Each prose paragraph or list item of a MyST page: its first line, and its text as the
    gettext catalogue holds it (the lines joined by spaces, without the list marker)."""
    lines, found = text.split("\n"), []
    for i, kind in enumerate(_line_kinds(text)):
        if kind != "prose":
            continue
        item = LIST_ITEM.match(lines[i])
        if item or not found or found[-1][2] != i - 1:
            found.append([i + 1, lines[i][item.end() if item else 0:].strip(), i])
        else:
            found[-1][1] += " " + lines[i].strip()
            found[-1][2] = i
    return [(first, body) for first, body, _last in found]


def says_cpu(text: str) -> bool:
    """Whether a text names the CPU in its words (a code span such as `JAX_NUM_CPU_DEVICES` does not count).

    >>> says_cpu("It runs on the CPU."), says_cpu("在 CPU 上运行。"), says_cpu("Set `JAX_NUM_CPU_DEVICES`.")
    (True, True, False)
    """
    return bool(re.search(r"(?<![A-Za-z_])CPU(?![A-Za-z_])", re.sub(r"`[^`]*`", "", text)))


def _before(text: str, cell_line: int) -> list[tuple[int, str]]:
    """The paragraphs between the previous code cell or heading and the cell on ``cell_line``."""
    kinds = _line_kinds(text)
    top = max((i + 1 for i in range(cell_line - 1) if kinds[i] in ("cell", "heading")), default=0)
    return [(first, body) for first, body in paragraphs(text) if top < first < cell_line]


def cpu_by_design_problems(loads: dict[str, list[str]], root: Path, locales: Path,
                           languages: tuple[str, ...]) -> list[str]:
    """Where a program that pins the CPU on purpose is loaded and its page does not say so.

    ``loads`` maps each page name to the snippet names it loads (``tools.shards.site_plan``); a
    page is ``root/docs/<page>.md``, a snippet ``root/<name>``. For each cell that loads such a
    program, a paragraph between the previous code cell or heading and the cell, or a sentence
    anywhere on the page that names the program's file, must name the CPU, and so must the
    translation of that paragraph in each of ``languages``. (The site has no section that
    explains CPU-by-design programs for a page to link to, so the paragraph says it.)"""
    import polib

    problems = []
    for page, names in sorted(loads.items()):
        path = root / "docs" / f"{page}.md"
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(root).as_posix()
        reasons = {name: next((r for _, _, r in pins((root / name).read_text(encoding="utf-8")) if r), None)
                   for name in names}
        designed = {name: reason for name, reason in reasons.items() if reason}
        if not designed:
            continue
        catalogues = {}
        for language in languages:
            po = locales / language / "LC_MESSAGES" / f"{page}.po"
            messages = {e.msgid: e.msgstr for e in polib.pofile(str(po)) if not e.obsolete} if po.is_file() else {}
            catalogues[po.relative_to(root).as_posix()] = messages
        for name, reason in designed.items():
            file_name = Path(name).name
            naming = [(first, body) for first, body in paragraphs(text)
                      if any(file_name in sentence and says_cpu(sentence) for sentence in SENTENCE_END.split(body))]
            for cell in scan_code_cells(text):
                load = cell["options"].get("load")
                if not load or (path.parent / load).resolve() != (root / name).resolve():
                    continue
                saying = list(dict.fromkeys([p for p in _before(text, cell["line"]) if says_cpu(p[1])] + naming))
                if not saying:
                    problems.append(f"{where}:{cell['line']}: {name} runs on the CPU by design ({reason}), and no "
                                    "paragraph between the previous code cell or heading and this cell says so: "
                                    "say there why this program runs on CPU devices")
                    continue
                for po, messages in catalogues.items():
                    for first, body in saying:
                        if body not in messages:
                            problems.append(f"{po}: no entry for {where}:{first} (run `nox -s i18n`, then translate): "
                                            f"{body[:60]!r}")
                        elif not says_cpu(messages[body]):
                            problems.append(f"{po}: the translation of {where}:{first} does not say CPU, as the "
                                            f"English does ({name} runs on the CPU by design)")
    return problems


def test_every_cpu_by_design_program_is_named_so_where_its_page_loads_it():
    """The reader learns, in the prose right before the cell, that the program runs on CPU devices
    on purpose: in English and in every translation. Every offender is listed."""
    from tools.shards import site_plan  # the build's own answer to "which pages load this snippet"

    loads = site_plan(DOCS).pages
    loaded = {name for names in loads.values() for name in names}
    problems = [f"{path.relative_to(SNIPPETS.parent)} pins the CPU on purpose and no page loads it"
                for path in SNIPPET_FILES
                if cpu_by_design(path.read_text()) and path.relative_to(SNIPPETS.parent).as_posix() not in loaded]
    problems += cpu_by_design_problems(loads, DOCS.parent, LOCALES, TRANSLATIONS)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


def test_the_cpu_by_design_check_fails_a_page_that_does_not_say_it(tmp_path):
    """A fake page and program: the check fails when the paragraph before the cell does not say
    that the program runs on the CPU, or when its translation does not, and passes when both do."""
    (tmp_path / "snippets" / "s").mkdir(parents=True)
    (tmp_path / "snippets" / "s" / "prog.py").write_text(
        '"""Counts devices."""\nimport os\nos.environ["JAX_PLATFORMS"] = "cpu"  # CPU by design: it counts CPU devices\n')
    (tmp_path / "docs" / "s").mkdir(parents=True)
    po = tmp_path / "docs" / "locales" / "zh_CN" / "LC_MESSAGES" / "s" / "page.po"
    po.parent.mkdir(parents=True)

    def problems(english: str, chinese: str, after: str = "It ran on the CPU.", after_zh: str = "它在 CPU 上运行。"):
        (tmp_path / "docs" / "s" / "page.md").write_text(
            "# Devices\n\nThe CPU backend starts late.\n\n## How many?\n\n"
            f"{english}\nIt prints them.\n\n```{{code-cell}} python\n:load: ../../snippets/s/prog.py\n```\n\n{after}\n")
        po.write_text(f'msgid ""\nmsgstr ""\n\nmsgid "{english} It prints them."\nmsgstr "{chinese}"\n\n'
                      f'msgid "{after}"\nmsgstr "{after_zh}"\n')
        return cpu_by_design_problems({"s/page": ["snippets/s/prog.py"]}, tmp_path, tmp_path / "docs" / "locales",
                                      ("zh_CN",))

    # "CPU" above the heading or after the cell does not count, and neither does a code span.
    assert problems("The program counts its devices with `JAX_NUM_CPU_DEVICES`.", "程序用 `JAX_NUM_CPU_DEVICES` 清点设备。") == [
        "docs/s/page.md:10: snippets/s/prog.py runs on the CPU by design (it counts CPU devices), and no paragraph "
        "between the previous code cell or heading and this cell says so: say there why this program runs on CPU devices"]
    assert problems("The program counts its CPU devices.", "程序清点设备。") == [
        "docs/locales/zh_CN/LC_MESSAGES/s/page.po: the translation of docs/s/page.md:7 does not say CPU, "
        "as the English does (snippets/s/prog.py runs on the CPU by design)"]
    assert problems("The program counts its CPU devices.", "程序清点 CPU 设备。") == []
    # A sentence anywhere on the page that names the program's file and the CPU counts too.
    named = "Output above. `prog.py` runs on the CPU."
    assert problems("The program counts its devices.", "程序清点设备。", named, "以上是输出。`prog.py` 在 CPU 上运行。") == []
    assert problems("The program counts its devices.", "程序清点设备。", named, "以上是输出。") == [
        "docs/locales/zh_CN/LC_MESSAGES/s/page.po: the translation of docs/s/page.md:14 does not say CPU, "
        "as the English does (snippets/s/prog.py runs on the CPU by design)"]


MULTI_DEVICE = [p for p in SNIPPET_FILES if "JAX_NUM_CPU_DEVICES" in p.read_text()
                and not any(r for _, _, r in pins(p.read_text()))]
EMULATED = re.compile(r'os\.environ\.setdefault\("JAX_NUM_CPU_DEVICES", "(\d+)"\)')
MESH_SHAPE = re.compile(r"jax\.make_mesh\(\(\s*(\d+)\s*,\s*(\d*)\s*\)")


def multi_device_problems(text: str) -> list[str]:
    """What a program for several devices does against the project's pattern (CONTRIBUTING.md, 'Devices
    and backends'): it takes the first 8, 4 or 2 accelerators and falls back to the emulated CPU devices it
    asked for only with fewer than 2; it prints which; and no mesh or slice assumes 8 accelerators."""
    match, emulated = PATTERN.search(text), EMULATED.search(text)
    problems = []
    if not match:
        problems.append("pick the devices with the project's pattern")
    elif not emulated or match.group(1) != emulated.group(1):
        problems.append("fall back to as many CPU devices as JAX_NUM_CPU_DEVICES asks for")
    rest = text.replace(match.group(0), "") if match else text
    if re.search(r"jax\.devices\(\)\[:\d", rest):
        problems.append("take the accelerators only through the pattern (no jax.devices()[:8] of its own)")
    if not re.search(r"print\(.*devices\[0\]\.platform", text):
        problems.append("print which devices it used")
    if not all("devices=" in call for call in re.findall(r"jax\.make_mesh\([^\n]*", text)):
        problems.append("name its devices in every jax.make_mesh call (devices=devices)")
    if any(int(a) * int(b or 1) == 8 for a, b in MESH_SHAPE.findall(text)):
        problems.append("derive the mesh shape from len(devices): 8 devices is one case of 8, 4 or 2")
    return problems


@pytest.mark.parametrize("path", MULTI_DEVICE, ids=_id)
def test_a_multi_device_program_uses_the_one_pattern(path):
    """It asks for emulated CPU devices, then takes the first 8, 4 or 2 accelerators, or the CPU devices
    when the machine has fewer than 2, prints which it used, and shapes its meshes from their number."""
    problems = multi_device_problems(path.read_text())
    assert not problems, f"{path} (CONTRIBUTING.md, 'Devices and backends'): " + "; ".join(problems)


def test_the_pattern_check_fails_a_program_that_assumes_8_accelerators():
    """The check itself: the project's pattern passes; 8 accelerators or nothing (the old pattern), a bare
    slice of the accelerators, a mesh of 8 written out, or a fallback of another size fails."""
    head = 'import os\nos.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")\nimport jax\n'
    pattern = 'devices = next((jax.devices()[:k] for k in (8, 4, 2) if jax.device_count() >= k), jax.devices("cpu")[:8])\n'
    tail = 'print(f"{len(devices)} devices: {devices[0].platform}")\n'
    mesh = 'mesh = jax.make_mesh((2, len(devices) // 2), ("x", "y"), devices=devices)\n'
    assert multi_device_problems(head + pattern + tail + mesh) == []
    assert multi_device_problems(head + "devices = jax.devices()[:8]\n" + tail + mesh) == [
        "pick the devices with the project's pattern",
        "take the accelerators only through the pattern (no jax.devices()[:8] of its own)"]
    old = 'devices = jax.devices()[:8] if jax.device_count() >= 8 else jax.devices("cpu")[:8]\n'
    assert multi_device_problems(head + old + tail + mesh)[0] == "pick the devices with the project's pattern"
    assert multi_device_problems(head + pattern + tail + "other = jax.devices()[:8]\n" + mesh) == [
        "take the accelerators only through the pattern (no jax.devices()[:8] of its own)"]
    eight = 'mesh = jax.make_mesh((2, 4), ("x", "y"), devices=devices)\n'
    assert multi_device_problems(head + pattern + tail + eight) == [
        "derive the mesh shape from len(devices): 8 devices is one case of 8, 4 or 2"]
    assert multi_device_problems(head.replace('"8"', '"2"') + pattern + tail + mesh) == [
        "fall back to as many CPU devices as JAX_NUM_CPU_DEVICES asks for"]


def test_the_pin_finder_sees_each_way_of_pinning(tmp_path):
    """The finder the tests rely on: setdefault, item assignment, update(...), config.update."""
    source = ('os.environ.setdefault("JAX_PLATFORMS", "cpu")\nenv["JAX_PLATFORMS"] = "cpu"\n'
              'env.update(JAX_PLATFORMS="cpu")\njax.config.update("jax_platforms", "cpu")\n')
    assert [n for n, _, _ in pins(source)] == [1, 2, 3, 4]
