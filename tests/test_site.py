"""The built site, in both languages: links and anchors resolve, every code cell is a snippet,
each executed page says once what it ran with, and the Chinese build ran nothing.

The checks that look for English where a translation's own script should be (the interface, the
Markdown's prose, 中文（English） glosses in headings) run on the translations whose ``script`` in
``kb_languages`` is ``cjk``; the figure conventions (TRANSLATING.md) are Chinese, for the
translations whose ``glossary`` is ``chinese``; the pinyin order for those whose ``index_order`` is
``pinyin``."""

from __future__ import annotations

import html
import importlib.metadata
import json
import re

import pytest

from kb.page import HEADER_CLASS
from kb.run.snippet import starts_jax
from tools.catalogs import (catalogs, english_generated_strings, english_interface_words, figure_word_problems,
                            generated_english, heading_glosses, site_figure_words, untranslated_figure_words)
from tools.site import (DOCS, LANGUAGES, LOCALES, SNIPPETS, TRANSLATIONS, broken_internal_links, built_pages,
                        languages_where, page_figures, reader_text, source_pages)
from tools.zh_style import built_page_problems

CELL_RE = re.compile(r'<div class="cell_input[^"]*">.*?<pre>(.*?)</pre>', re.S)
TAG_RE = re.compile(r"<[^>]+>")
CJK_RE = re.compile(r"[\u4e00-\u9fff]")
CJK_TRANSLATIONS = languages_where("script", "cjk")
CHINESE_TRANSLATIONS = languages_where("glossary", "chinese")


def cell_sources(page):
    return [html.unescape(TAG_RE.sub("", m)) for m in CELL_RE.findall(page.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("language", LANGUAGES)
def test_internal_links_and_anchors(site, language):
    problems = broken_internal_links(site / language)
    assert not problems, "\n".join(problems[:50])


def test_root_index_offers_both_languages(site):
    text = (site / "index.html").read_text(encoding="utf-8")
    for language in LANGUAGES:
        assert f'href="{language}/index.html"' in text
        assert (site / language / "index.html").exists()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_code_cell_is_a_snippet(site, language):
    """What a reader copies from the page is exactly a snippet, and snippets run alone
    (test_snippets), so every code cell on the site runs when copied into a fresh process."""
    snippets = {p.read_text(encoding="utf-8").strip(): p for p in SNIPPETS.rglob("*.py")}
    seen = 0
    for page in built_pages(site, language):
        for source in cell_sources(page):
            seen += 1
            assert source.strip() in snippets, f"{page}: a code cell is not a snippet:\n{source[:300]}"
    assert seen, f"no code cells found in the {language} build"


@pytest.mark.parametrize("language", LANGUAGES)
def test_header_box_once_per_executed_page(site, language):
    jax_version = importlib.metadata.version("jax")
    for page in built_pages(site, language):
        text = page.read_text(encoding="utf-8")
        boxes = text.count(f'class="{HEADER_CLASS}')
        if cell_sources(page):
            assert boxes == 1, f"{page}: {boxes} header boxes, expected 1"
            box = text[text.index(f'class="{HEADER_CLASS}'):][:800]
            if any(starts_jax(source) for source in cell_sources(page)):  # JAX in the program's own process
                assert f"jax {jax_version}" in box, f"{page}: provenance does not name jax {jax_version}"
                assert re.search(r"(CPU|GPU|NVIDIA|TPU)[^<]*×\d+", box), f"{page}: provenance names no devices"
            else:  # its programs start JAX only in child processes (xla/tflag_where.py): no empty slot
                assert ", , " not in box and "、；" not in box, f"{page}: provenance has an empty package list"
        else:
            assert boxes == 0, f"{page}: a header box on a page without code"


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_translated_build_ran_nothing_and_read_the_same_records(site, language):
    """A translation runs no snippet (kb.execution refuses to) and renders from the very records
    the source language's build rendered from."""
    report = json.loads((site / language / "_kb_build.json").read_text(encoding="utf-8"))
    source = json.loads((site / LANGUAGES[0] / "_kb_build.json").read_text(encoding="utf-8"))
    assert report["language"] == language
    assert report["ran"] == {}, f"the {language} build ran {sorted(report['ran'])}"
    assert report["records"] == source["records"] and report["pages"] == source["pages"]


@pytest.mark.parametrize("language", CJK_TRANSLATIONS)
def test_chinese_pages_are_chinese(site, language):
    import conf

    hreflang = conf.kb_languages[language]["hreflang"]
    for page in built_pages(site, language):
        text = page.read_text(encoding="utf-8")
        assert f'<html lang="{hreflang}"' in text or f'lang="{language}"' in text, f"{page}: not marked as {language}"
        main = text[text.find('<main'):]
        assert CJK_RE.search(TAG_RE.sub("", main)), f"{page}: no CJK text"


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_translations_are_applied(site, language):
    """A translated string that Sphinx could not apply (for instance a msgstr that parses as a
    list, or whose markup differs) silently leaves the English on the translated page: find it."""
    import polib

    problems = []
    for po in catalogs(language):
        if not po.is_relative_to(LOCALES):
            continue  # the interface catalogue (kb.po): its strings are checked by the fixture build
        doc = po.relative_to(LOCALES / language / "LC_MESSAGES").with_suffix("")
        page = site / language / f"{doc}.html"
        if not page.exists():
            continue
        prose = re.sub(r"<pre>.*?</pre>", " ", page.read_text(encoding="utf-8"), flags=re.S)  # code, outputs
        text = " ".join(html.unescape(TAG_RE.sub(" ", prose)).split())
        for entry in polib.pofile(str(po)):
            msgid = " ".join(entry.msgid.split())
            plain = not re.search(r"[`*_\[\]{}<>$|\\]", msgid)
            kept = msgid in " ".join(entry.msgstr.split())  # e.g. glossary terms: 分片（sharding）
            if plain and entry.msgstr and not kept and len(msgid.split()) >= 3 and msgid in text:
                problems.append(f"{language}/{doc}.html still shows the English: {msgid[:80]!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_interface_strings_are_translated(site, language):
    """The words kb adds to pages (kb.translations: provenance, downloads, the 404 page) reach every
    translated page in its language: no English piece of them shows."""
    from kb.translations import interface_messages

    pieces = {piece.strip() for msgid in interface_messages() for piece in re.split(r"\{[^}]*\}", msgid)}
    pieces = {p for p in pieces if len(p) >= 8 and re.search(r"[A-Za-z]{4}", p)}
    assert "Executed at build time" in pieces and "this page as a notebook (.ipynb)" in pieces
    problems = []
    for page in built_pages(site, language):
        prose = re.sub(r"<pre>.*?</pre>", " ", page.read_text(encoding="utf-8"), flags=re.S)
        text = " ".join(html.unescape(TAG_RE.sub(" ", prose)).split())
        problems += [f"{page.relative_to(site)}: {p!r}" for p in sorted(pieces) if p in text]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", CJK_TRANSLATIONS)
def test_no_english_machine_or_status_in_translated_pages(site, language):
    """kb words a machine and a run's status in the page's language (kb.machines, kb.accelerator_status,
    kb.po), never in a machine report's English: no "13 CPU cores", "Linux x86_64" or "TPU v5 lite",
    no "versions differ" or "failed" in the text of a translated page or of its Markdown, outside
    code and outputs (tools.catalogs.generated_english; the native review 2026-12c, C1 to C4)."""
    strings = english_generated_strings()
    assert {"CPU cores", "versions differ", "not run there"} <= set(strings), strings
    problems, read = [], 0
    for page in built_pages(site, language):
        for path, markdown in ((page, False), (page.with_suffix(".md"), True)):
            if path.is_file():
                read += 1
                text = reader_text(path.read_text(encoding="utf-8"), markdown=markdown)
                problems += [f"{path.relative_to(site)}: {word!r}" for word in generated_english(text, strings)]
    assert read > 100, f"only {read} pages read"
    assert not problems, "English of a machine report or a status on a translated page:\n" + "\n".join(problems[:40])


@pytest.mark.parametrize("language", CHINESE_TRANSLATIONS)
def test_generated_text_reads_as_chinese(site, language):
    """What kb writes into a Chinese page from kb.po's templates (the header box's lines, the box
    beside a timing cell's output, the status page, the floors table) has full-width punctuation,
    no brackets inside brackets and no English word of a template (tools.zh_style.generated_problems)."""
    problems = built_page_problems(site, (language,))
    assert not problems, "\n".join(problems[:40])


@pytest.mark.parametrize("language", LANGUAGES)
def test_figures_are_svg_with_their_words_as_text(site, language):
    """Figures are SVG whose words are <text> (kb.figures), so the translated pages can replace
    them and the reader's browser draws them; a PNG figure could do neither."""
    figures = {f"{page.relative_to(site)}: {path.name}": path
               for page in built_pages(site, language) for path in page_figures(page)}
    assert figures, f"no figures in the {language} build (core/control-flow has one)"
    bitmaps = [where for where, path in figures.items() if path.suffix != ".svg"]
    assert not bitmaps, f"figures that are not SVG: {bitmaps}"
    wordless = [where for where, path in figures.items() if "<text" not in path.read_text(encoding="utf-8")]
    assert not wordless, f"SVG figures whose words are paths, not text: {wordless}"


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_figure_words_are_translated(site, language):
    problems = untranslated_figure_words(site, language)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", CHINESE_TRANSLATIONS)
def test_figure_words_follow_one_convention(site, language):
    """Units as symbols in full-width brackets, one label per quantity on every figure (TRANSLATING.md)."""
    words = site_figure_words(site, language)
    assert len(words) > 50, "the figures' words were not found"
    problems = figure_word_problems(words)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", CJK_TRANSLATIONS)
def test_the_interface_of_translated_pages_is_translated(site, language):
    """The theme's words (search placeholder, tooltips, colour modes, landmarks, footer) read in
    the page's language on every translated page, the search page and the index included."""
    problems = {}
    for page in built_pages(site, language, generated=True):
        for word in english_interface_words(page.read_text(encoding="utf-8")):
            problems.setdefault(word, []).append(str(page.relative_to(site)))
    assert not problems, "\n".join(f"{word}: {pages[0]} (+{len(pages) - 1} pages)" for word, pages in problems.items())


@pytest.mark.parametrize("language", LANGUAGES)
def test_section_index_offers_all_its_programs_in_one_archive(site, language):
    """Each section index links an archive that holds exactly the programs its section's pages
    load (the build's plan, tools.shards.site_plan), not a listing of the snippets folder."""
    import zipfile

    from tools.shards import site_plan

    loaded: dict[str, set[str]] = {}
    for page, names in site_plan(DOCS).pages.items():
        section, slash, _rest = page.partition("/")
        if slash and names and (DOCS / section / "index.md").exists():
            loaded.setdefault(section, set()).update(name.removeprefix("snippets/") for name in names)
    assert {"core", "parallel"} <= set(loaded)
    problems = []
    for section, programs in sorted(loaded.items()):
        page = (site / language / section / "index.html").read_text(encoding="utf-8")
        href = f"../_kb/downloads/{section}-programs.zip"
        if f'href="{href}"' not in page:
            problems.append(f"{language}/{section}/index.html: no link to {href}")
            continue
        with zipfile.ZipFile(site / language / "_kb" / "downloads" / f"{section}-programs.zip") as archive:
            names = set(archive.namelist())
        if names != programs:
            problems.append(f"{section}-programs.zip: lacks {sorted(programs - names)}, "
                            f"holds no page's program {sorted(names - programs)}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_error_in_an_output_names_the_snippet_and_line(site, language):
    """An error quoted in an output names snippets/<section>/<name>.py:<line> (kb.run.child compiles
    each snippet under its own name), the same in every build: the jit page's tracer error does."""
    jit = (site / language / "core" / "jit.html").read_text(encoding="utf-8")
    assert re.search(r"relu_python at snippets/core/jit_\w+\.py:\d+", jit), "the jit page's tracer error names no snippet"


@pytest.mark.parametrize("language", CJK_TRANSLATIONS)
def test_no_english_gloss_in_headings(site, language):
    """A translated title or heading never carries a 中文（English） gloss (tools.catalogs.heading_glosses)."""
    problems = [f"{page.relative_to(site)}: {heading}" for page in built_pages(site, language)
                for heading in heading_glosses(page.read_text(encoding="utf-8"))]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
def test_downloaded_notebooks_carry_the_outputs_of_the_page(site, language):
    """Each page's .ipynb download holds every code cell's outputs (from the records, also in
    builds that ran nothing), with snippets named, never a temporary file."""
    import json

    notebooks = sorted((site / language / "_kb" / "notebooks").rglob("*.ipynb"))
    with_code = {p.relative_to(DOCS).with_suffix("").as_posix() for p in DOCS.rglob("*.md")
                 if "{code-cell}" in p.read_text(encoding="utf-8") and not p.is_relative_to(DOCS / "_ext")}
    downloaded = {p.relative_to(site / language / "_kb" / "notebooks").with_suffix("").as_posix() for p in notebooks}
    assert with_code <= downloaded, with_code - downloaded
    for path in notebooks:
        text = path.read_text(encoding="utf-8")
        assert "ipykernel_" not in text, f"{path.relative_to(site)} quotes the kernel's temporary file"
        empty = [i for i, cell in enumerate(json.loads(text)["cells"])  # the install cell (kb.notebooks) runs on Colab only
                 if cell["cell_type"] == "code" and not cell.get("outputs") and "added" not in cell["metadata"].get("kb", {})]
        assert not empty, f"{path.relative_to(site)}: code cells {empty} have no outputs"


@pytest.mark.parametrize("language", languages_where("index_order", "pinyin"))
def test_chinese_index_and_glossary_are_in_pinyin_order(site, language):
    """The general index groups entries under A-Z by pinyin, and the glossary page lists its terms
    in the same order (kb.pinyin_order); Sphinx alone groups by first character (中, 优, 全 …)."""
    from kb.pinyin_order import pinyin_key

    index = (site / language / "genindex.html").read_text(encoding="utf-8")
    headings = re.findall(r'<h2 id="([^"]*)">', index)
    letters = [h for h in headings if h != "符号"]
    assert letters and all(len(h) == 1 and h.isascii() and h.isupper() for h in letters), headings
    assert letters == sorted(letters)
    glossary = (site / language / "reference" / "glossary.html").read_text(encoding="utf-8")
    terms = [html.unescape(TAG_RE.sub("", first)).strip()  # the first term of each entry (donation follows buffer donation)
             for chunk in glossary.split("</dd>")
             for first in re.findall(r'<dt id="term-[^"]*">(.*?)<a class="headerlink', chunk, re.S)[:1]]
    assert len(terms) > 50 and any("分片" in t for t in terms)
    keys = [pinyin_key(t) for t in terms]
    assert keys == sorted(keys), [t for t, k, n in zip(terms, keys, keys[1:]) if k > n][:5]


LABEL_RE = re.compile(r"^\(([A-Za-z0-9_-]+)\)=[ \t]*$", re.M)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_label_of_a_page_is_an_anchor_of_the_built_page(site, language):
    """A fence that MyST does not read as one (an admonition title with backticks, say) turns the
    rest of a section into a code block: its heading and label vanish without a warning."""
    missing = []
    for name in source_pages():
        built = (site / language / f"{name}.html").read_text(encoding="utf-8")
        for label in LABEL_RE.findall((DOCS / f"{name}.md").read_text(encoding="utf-8")):
            if f'id="{label}"' not in built:
                missing.append(f"{name}: ({label})=")
    assert not missing, "labels with no anchor on the built page:\n" + "\n".join(missing)


def content_pages(site, language):
    return [p for p in built_pages(site, language) if p.relative_to(site / language).as_posix() != "404.html"]


FENCE_RE = re.compile(r"^(`{3,})python\n(.*?)\n\1$", re.S | re.M)
MD_LINK_RE = re.compile(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_has_its_markdown_in_its_language(site, language):
    """kb.markdown: beside each page, <page>.md with the page's title and prose in its language,
    every code cell as fenced Python (exactly its snippet, as on the page), its outputs as text,
    and the download menu's .md entry pointing at it (the 404 page, which is not content, has none)."""
    for page in content_pages(site, language):
        md = page.with_suffix(".md")
        assert md.is_file(), f"{md} is missing"
        text = md.read_text(encoding="utf-8")
        h1 = re.search(r"<h1[^>]*>(.*?)</h1>", page.read_text(encoding="utf-8"), re.S).group(1)
        title = " ".join(html.unescape(TAG_RE.sub("", re.sub(r'<a class="headerlink".*?</a>', "", h1))).split())
        heading = next((line[2:] for line in text.splitlines() if line.startswith("# ")), "")
        assert " ".join(re.sub(r"[`\\]", "", heading).split()) == title, f"{md}: heading {heading!r}, page {title!r}"
        cells = cell_sources(page)
        fenced = [m.group(2).strip() for m in FENCE_RE.finditer(text)]
        assert [c.strip() for c in cells] == fenced, f"{md}: the code cells differ from the page's"
        if cells:
            assert "```text\n" in text, f"{md}: no output"
        if language in CJK_TRANSLATIONS:
            prose = re.sub(r"(`{3,}).*?\1", "", text, flags=re.S)
            assert CJK_RE.search(prose), f"{md}: no CJK prose"
        for target in MD_LINK_RE.findall(text):
            assert (md.parent / target).resolve().is_file(), f"{md}: links to a missing {target}"
        menu = re.search(r'<a href="([^"]+)"[^>]*btn-download-source-button', page.read_text(encoding="utf-8"))
        assert menu and (page.parent / menu.group(1)).resolve() == md.resolve(), f"{page}: download menu {menu}"
    assert not list((site / language).glob("_sources/**/*.md*")), "the English MyST sources are copied again"


@pytest.mark.parametrize("language", LANGUAGES)
def test_llms_txt_lists_every_page(site, language):
    """Each language's llms.txt (llmstxt.org: a title, a summary, lists of links) names every page's
    Markdown once; the root llms.txt points at every language's."""
    text = (site / language / "llms.txt").read_text(encoding="utf-8")
    assert text.startswith("# ") and "\n> " in text
    listed = re.findall(r"^- \[[^\]]+\]\(([^)]+\.md)\)", text, re.M)
    pages = sorted(p.relative_to(site / language).with_suffix(".md").as_posix() for p in content_pages(site, language))
    assert sorted(listed) == pages, set(pages) ^ set(listed)
    root = (site / "llms.txt").read_text(encoding="utf-8")
    for other in LANGUAGES:
        assert f"]({other}/llms.txt)" in root
