"""A figure that a page's prose quotes from a program's output is the one that output holds.

Pages quote what their programs printed: a loss, a ratio, a time on the TPU v5e. When a program or
the machine it ran on changes, its output changes and a sentence quoting the old number goes stale
(review G1: "3,327 tokens per second" under a cell that printed 6,967). Each figure of the prose (a
number with a decimal point or a thousands separator, not a version) must be in the output of one
of the page's programs, or of the programs of a page that the same line links with ``{ref}``: the
build's record (``_build/records``) or a committed machine report's row (``reports/machines/``), as
printed or rounded to the digits the prose shows; or in the programs' own source (an asserted bound). A figure that comes from elsewhere, a ratio the prose works out
from two printed ones or a fact from a release note, is listed in ``ELSEWHERE`` with its reason.

So a timing on the build's CPU, which changes with every build, cannot be quoted in prose at all:
say what the program asserts instead, and quote accelerator figures from a committed report. The
same figures must be in each translation of the sentence.
"""

from __future__ import annotations

import glob
import json
import re
from pathlib import Path

import polib

from tools.site import DOCS, LOCALES, ROOT, SOURCE_LANGUAGE, TRANSLATIONS

from kb.run.plan import scan_code_cells, site_plan  # noqa: E402 (tools.site: docs/_ext importable)

FIGURE = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+)(?![\w]|\.\d)")
VERSION = re.compile(r"(?:jax|jaxlib|flax|optax|torch|pytorch|python|ipython|triton|transformers|cuda|"
                     r"compute capability)(?:\s+(?:before|after|since|and))?\s+$", re.I)
NUMBER = re.compile(r"\d+(?:\.\d+)?(?:e[-+]?\d+)?")
# (page, figure): why the prose may state it though no output of the page prints it.
ELSEWHERE = {
    ("xla/memory-schedulers", "1.1"): "XLA's documented limit factors for a concurrency-optimized peak",
    ("xla/memory-schedulers", "1.05"): "XLA's documented limit factors for a concurrency-optimized peak",
    ("gpt/torch-attention", "3.5"): "worked out from the two printed sizes (16.2 / 4.6 MiB)",
    ("performance/out-of-memory", "1.6"): "worked out from the printed buffer size and its data (16384 / 10240 bytes)",
    ("gpt/torch-attention", "0.01"): "the input of the program on gpt/port-defaults that the sentence points to",
    ("performance/recompiles", "0.10"): "a release (JAX 0.12 and 0.10)",
    ("install/jax-jaxlib", "22.04"): "a release of Ubuntu",
    ("install/jax-jaxlib", "3.10"): "a release of Python (Ubuntu 22.04's own)",
    ("gpt/mixed-precision", "33.5"): "MFU by PaLM's count, worked out from the printed 3.504e+12 flops and 53.09 ms at 197 TFLOP/s",
    ("performance/mfu", "32.5"): "MFU by PaLM's count, worked out from the printed 6PT (2.397e+12) and 44.69 ms, plus 12·L·d·T·tokens",
    ("performance/profiles", "202.7"): "run by hand on the TPU VM after the pass, reports/machines/logs-2026-12-07c/prof_op_rates_jax.after-fix.txt",
    ("performance/profiles", "819.16"): "run by hand on the TPU VM after the pass, reports/machines/logs-2026-12-07c/prof_op_rates_jax.after-fix.txt",
    ("performance/profiles", "5883.6"): "run by hand on the TPU VM after the pass, reports/machines/logs-2026-12-07c/prof_op_rates_jax.after-fix.txt",
    ("performance/profiles", "178.5"): "run by hand on the TPU VM after the pass, reports/machines/logs-2026-12-07c/prof_op_rates_jax.after-fix.txt",
    ("performance/remat", "30.82"): "run by hand on the TPU VM after the pass, reports/machines/logs-2026-12-07c/remat_offload_scan.after-fix.txt",
    ("performance/remat", "38.81"): "run by hand on the TPU VM after the pass, reports/machines/logs-2026-12-07c/remat_offload_scan.after-fix.txt",
    ("performance/remat", "34.20"): "run by hand on the TPU VM after the pass, reports/machines/logs-2026-12-07c/remat_offload_scan.after-fix.txt",
    ("performance/remat", "141.54"): "run by hand on the TPU VM after the pass, reports/machines/logs-2026-12-07c/remat_offload_scan.after-fix.txt",
    ("performance/remat", "107.34"): "worked out from the by-hand run's 141.54 ms (offloading z) minus 34.20 ms (saving z)",
    ("performance/remat", "3.14"): "worked out from the by-hand run: 107.34 ms added by the offload / 34.20 ms of saving z",
    ("performance/remat", "6,400"): "worked out: 2048 x 107.34 / 34.20, the width at which the step's computation (grows as D^2) covers the transfers (grow as D)",
    ("performance/remat", "8,800"): "worked out: 4 bytes per value / (6 D flops per value) at 197 TFLOP/s and 1536 MiB / 107.34 ms (15 GB/s)",
    ("performance/remat", "2304.2"): "the 2026-12-06 report (jax 0.10.2), reports/machines/earlier/",
    ("performance/mfu", "5883.6"): "run by hand on the TPU VM after the pass, reports/machines/logs-2026-12-07c/prof_op_rates_jax.after-fix.txt (the program of performance/profiles)",
    ("gpt/generate", "87,000"): "worked out from a v5e's 819e9 bytes/s and GPT-2 small's cache bytes per sequence at 256 positions",
}


def quoted(text: str) -> list[tuple[int, str]]:
    """(line, figure) of every figure in a MyST page's prose: code cells, code spans, headings,
    tables and directive lines left out.

    >>> quoted("The loss fell to 0.2382 with jax 0.12.0.1 and torch 2.13; it made 3,327 tokens/s.\\n`1.5`\\n")
    [(1, '0.2382'), (1, '3,327')]
    >>> quoted("* - ```pycon\\n    >>> 0.5 + 1\\n    1.5\\n\\n    ```\\n  - 2.5 is quoted\\n")
    [(6, '2.5')]
    """
    lines = text.split("\n")
    for cell in scan_code_cells(text):
        lines[cell["line"] - 1:cell["end"]] = [""] * (cell["end"] - cell["line"] + 1)
    found, fence = [], None
    for number, line in enumerate(lines, 1):
        opened = re.match(r"\s*(?:[*-]\s+)*(`{3,}|~{3,})", line)
        if fence or opened:  # a fenced block (a >>> example in a table cell too): code, which doctest checks
            if fence is None:
                fence = opened.group(1)
            elif line.strip() == fence:
                fence = None
            continue
        if line.startswith(("#", "|", ":", "(")):
            continue
        prose = re.sub(r"`[^`]*`", "", line)
        found += [(number, m.group(1)) for m in FIGURE.finditer(prose) if not VERSION.search(prose[:m.start()])]
    return found


def holds(figure: str, outputs: str) -> bool:
    """Whether ``outputs`` holds ``figure``, as printed or rounded to its digits.

    >>> holds("3,327", "tokens/s: 3327"), holds("0.32", "max diff 0.3215"), holds("0.32", "3.2e-01"), holds("0.32", "0.3261")
    (True, True, True, False)
    """
    value = figure.replace(",", "")
    digits = len(value.split(".")[1]) if "." in value else 0
    return any(abs(float(n) - float(value)) <= 0.5 * 10**-digits * (1 + 1e-9)
               for n in set(NUMBER.findall(outputs.replace(",", ""))))


def page_outputs(site: Path) -> dict[str, str]:
    """Every page's programs: what the build's records and the committed reports hold of them, and their source."""
    records = json.loads((site / SOURCE_LANGUAGE / "_kb_build.json").read_text(encoding="utf-8"))["records"]
    rows: dict[str, list[str]] = {}
    for path in sorted(glob.glob(str(ROOT / "reports" / "machines" / "*.json"))):
        for row in json.loads(Path(path).read_text(encoding="utf-8"))["snippets"]:
            rows.setdefault(row["snippet"], []).append(row.get("stdout") or "")
    outputs = {}
    for page, names in site_plan(DOCS).pages.items():
        parts = []
        for name in names:  # (a program without a record fails test_snippets, which says to build the site)
            record = json.loads(Path(records[name]).read_text(encoding="utf-8")) if name in records else {"stdout": ""}
            parts += [record["stdout"], *rows.get(name, []), (ROOT / name).read_text(encoding="utf-8")]
        outputs[page] = "\n".join(parts)
    return outputs


def label_pages() -> dict[str, str]:
    """Each ``(label)=`` of the pages, with its page."""
    return {m.group(1): path.relative_to(DOCS).with_suffix("").as_posix()
            for path in DOCS.rglob("*.md") if "locales" not in path.parts and not path.name.startswith("_")
            for m in re.finditer(r"^\(([\w-]+)\)=$", path.read_text(encoding="utf-8"), re.M)}


def test_every_quoted_figure_is_in_an_output_of_its_page(site):
    outputs, labels = page_outputs(site), label_pages()
    stale = []
    for page in sorted(outputs):
        lines = (DOCS / f"{page}.md").read_text(encoding="utf-8").split("\n")
        for line, figure in quoted("\n".join(lines)):
            linked = {labels.get(label) for label in re.findall(r"\{ref\}`(?:[^`<]*<)?([\w-]+)>?`", lines[line - 1])}
            where = "\n".join(outputs.get(p, "") for p in {page} | linked)
            if (page, figure) not in ELSEWHERE and not holds(figure, where):
                stale.append(f"docs/{page}.md:{line}: {figure}")
    assert not stale, ("figures the prose quotes that no output of the page's programs holds (a stale number, or "
                       "a CPU timing, which changes with every build; a figure from elsewhere goes into ELSEWHERE "
                       "with its reason):\n" + "\n".join(stale))


def test_a_translation_quotes_the_figures_of_its_sentence():
    """The Chinese sentence quotes the same figures as the English one (not an older number)."""
    problems = []
    for language in TRANSLATIONS:
        for po in sorted((LOCALES / language / "LC_MESSAGES").rglob("*.po")):
            for entry in polib.pofile(str(po)):
                if entry.obsolete or not entry.msgstr:
                    continue
                wanted = {f.replace(",", "") for _, f in quoted(entry.msgid)}
                have = {f.replace(",", "") for _, f in quoted(entry.msgstr)} | set(NUMBER.findall(entry.msgstr))
                # A fraction may be written as a percentage in the translation (0.989 as 98.9%).
                missing = [f for f in wanted - have if not holds(f"{float(f) * 100:.{max(0, len(f.split('.')[-1]) - 2)}f}",
                                                                 " ".join(have))]
                if missing:
                    problems.append(f"{po.relative_to(ROOT)}: {sorted(missing)} in {entry.msgid[:80]!r}")
    assert not problems, "\n".join(problems)
