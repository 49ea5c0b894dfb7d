"""kb.search on a small index: search words lead to their term's pages in each language, and an
incremental build starts from Sphinx's own index, not from the one with the search words in it."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import conf
from kb import search

GLOSSARY = ("english\tchinese\tgloss\tdisplay\tnote\tsearch\n"
            "out of memory (OOM)\t内存不足\tyes\t内存不足（OOM，out of memory）\t\t爆显存 / OOM\n")


def project(tmp_path: Path, language: str, terms: dict, titles: dict | None = None):
    (tmp_path / "docs" / "_data").mkdir(parents=True)
    (tmp_path / "docs" / "_data" / "glossary.tsv").write_text(GLOSSARY, encoding="utf-8")
    out = tmp_path / "html"
    out.mkdir()
    index = {"docnames": ["a", "b", "c"], "terms": terms, "titleterms": titles or {},
             "alltitles": {"How do I avoid out-of-memory errors?": [[2, "oom"]]}}
    (out / "searchindex.js").write_text("Search.setIndex(" + json.dumps(index) + ")", encoding="utf-8")
    lang = SimpleNamespace(split=lambda text: text.replace("-", " ").split(), stem=lambda word: word.lower(),
                           word_filter=lambda word: word not in {"of", "out", "the"})  # Sphinx drops "out" too
    builder = SimpleNamespace(format="html", outdir=out, searchindex_filename="searchindex.js",
                              indexer=SimpleNamespace(lang=lang))
    return SimpleNamespace(builder=builder, confdir=str(tmp_path), doctreedir=str(tmp_path / "doctrees"),
                           config=SimpleNamespace(language=language, kb_languages=conf.kb_languages))


def read(app) -> dict:
    text = (Path(app.builder.outdir) / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(text[len("Search.setIndex("):-1])


def test_search_words_lead_to_the_pages_of_their_term(tmp_path):
    zh = project(tmp_path / "zh", "zh_CN", {"内存不足": [0, 1], "oom": 1})
    search.on_build_finished(zh, None)
    assert read(zh)["terms"]["爆显存"] == [0, 1]  # the Chinese term's pages, and the abbreviation's
    en = project(tmp_path / "en", "en", {"memory": [0, 1]}, {"memory": 2})
    search.on_build_finished(en, None)
    index = read(en)
    assert index["titleterms"]["oom"] == 2  # "out-of-memory" as a phrase in a title: page c only
    assert index["terms"]["oom"] == [0, 1]  # the pages holding the words that are in the index


def test_an_incremental_build_starts_from_sphinx_s_own_index(tmp_path):
    app = project(tmp_path, "zh_CN", {"内存不足": [0, 1]})
    own = (Path(app.builder.outdir) / "searchindex.js").read_text(encoding="utf-8")
    search.on_build_finished(app, None)
    assert "爆显存" in read(app)["terms"]
    search.on_builder_inited(app)  # the next build: Sphinx loads its own index, without 爆显存
    assert (Path(app.builder.outdir) / "searchindex.js").read_text(encoding="utf-8") == own
    newer = "Search.setIndex(" + json.dumps({"docnames": ["a"], "terms": {}, "titleterms": {}}) + ")"
    (Path(app.builder.outdir) / "searchindex.js").write_text(newer, encoding="utf-8")
    search.on_builder_inited(app)  # an index this module did not write is left as it is
    assert (Path(app.builder.outdir) / "searchindex.js").read_text(encoding="utf-8") == newer


def test_a_changed_index_format_stops_the_build(tmp_path):
    import pytest
    from sphinx.errors import ExtensionError

    app = project(tmp_path, "en", {})
    (Path(app.builder.outdir) / "searchindex.js").write_text("var index = {};", encoding="utf-8")
    with pytest.raises(ExtensionError, match="search index format"):
        search.on_build_finished(app, None)


def test_the_build_box_stays_out_of_the_index():
    """The box at the top of a page (versions, devices, backend lines) is on nearly every page: its
    words would lead to every page with a program. Sphinx's own indexer skips it."""
    from docutils import nodes
    from docutils.utils import new_document
    from sphinx.search import WordCollector
    from sphinx.search.en import SearchEnglish

    doc = new_document("page")
    doc += nodes.container("", nodes.paragraph(text="jaxlib 0.12 on TPU v5e"), classes=[search.HEADER_CLASS])
    doc += nodes.paragraph(text="gradients")
    search.keep_build_box_out(None, doc, "page")
    collector = WordCollector(doc, SearchEnglish({}))
    doc.walk(collector)
    assert collector.found_words == ["gradients"]


def counting_project(tmp_path: Path, pages: dict[str, str]):
    """A project whose builder indexes ``pages`` (name -> text) the way Sphinx's does: through
    ``index_page``, which splits the text with the language's ``split``."""
    app = project(tmp_path, "en", {"tf32": [0, 1, 2], "jax": [0, 1, 2]})
    lang = app.builder.indexer.lang
    lang.split = lambda text: text.split()
    app.builder.indexer = SimpleNamespace(lang=lang)
    fed = []
    app.builder.index_page = lambda name, doctree, title: fed.append(app.builder.indexer.lang.split(pages[name]))
    return app


def empty_doctree(keywords: str = ""):
    """A page's doctree; with ``keywords``, the ``meta`` node that ``html_meta: keywords:`` in the
    front matter gives."""
    from docutils import nodes
    from docutils.utils import new_document

    doc = new_document("page")
    if keywords:
        doc += nodes.meta(name="keywords", content=keywords)
    return doc


def test_the_words_readers_ask_a_page_in_are_its_title_words(tmp_path):
    """``html_meta: keywords:``: Sphinx indexes each comma-separated keyword whole; kb.search gives
    it the keyword's words instead, as title words of the page (the scorer ranks a page whose titles
    hold a word first), survives an incremental build, and leaves the page's meta tag as written."""
    pages = {"a": "tf32 jax", "b": "jax emulated devices", "c": "tf32 jax"}
    app = counting_project(tmp_path, pages)
    seen = []
    app.builder.index_page = lambda name, doctree, title: seen.append(
        [node["content"] for node in doctree.findall(nodes_meta())])
    search.on_builder_inited(app)
    doctree = empty_doctree("fake devices, simulate 8 GPUs")
    app.builder.index_page("b", doctree, "b")
    assert seen == [["fake, devices, simulate, 8, GPUs"]]  # what Sphinx's indexer reads: one word each
    assert next(iter(doctree.findall(nodes_meta())))["content"] == "fake devices, simulate 8 GPUs"
    search.on_build_finished(app, None)
    index = read(app)
    assert index["titleterms"]["fake"] == 1 and index["titleterms"]["simulate"] == 1
    assert "fake" not in index["terms"]
    search.on_builder_inited(app)  # the next build indexes page a alone: b keeps its words
    app.builder.index_page("a", empty_doctree(), "a")
    search.on_build_finished(app, None)
    assert read(app)["titleterms"]["fake"] == 1


def nodes_meta():
    from docutils import nodes

    return nodes.meta


def test_the_pages_that_dwell_on_a_word_are_in_the_index(tmp_path):
    """``kbdwell``: the page that uses a word most, for the scorer; the counts survive an
    incremental build that indexes only some pages again."""
    pages = {"a": "tf32 " * 9 + "jax jax jax", "b": "tf32 jax jax jax", "c": "tf32 tf32 jax jax jax"}
    app = counting_project(tmp_path, pages)
    search.on_builder_inited(app)
    for name in pages:
        app.builder.index_page(name, empty_doctree(), name)
    search.on_build_finished(app, None)
    assert read(app)["kbdwell"] == {"tf32": 0}  # every page uses "jax" as often: no page dwells on it
    search.on_builder_inited(app)  # the next build indexes page c alone, now all about tf32
    pages["c"] = "tf32 " * 30 + "jax jax jax"
    app.builder.index_page("c", empty_doctree(), "c")
    search.on_build_finished(app, None)
    assert read(app)["kbdwell"] == {"tf32": 2}


def scorer_page(folder: Path, globals_js: str = "") -> None:
    """A search page in ``folder``: Sphinx's own searchtools.js and kb-scorer.js, with ``globals_js``
    (the variables kb.search would give the page) set before them; the test sets the index."""
    import sphinx

    static = Path(sphinx.__file__).parent / "themes" / "basic" / "static"
    scorer = Path(__file__).resolve().parents[1] / "docs" / "_static" / "kb-scorer.js"
    (folder / "searchtools.js").write_bytes((static / "searchtools.js").read_bytes())
    (folder / "kb-scorer.js").write_bytes(scorer.read_bytes())
    (folder / "search.html").write_text(
        '<html><head><meta charset="utf-8"></head><body><div id="search-results"></div><script>'
        f'var DOCUMENTATION_OPTIONS = {{}}; var _ready = () => {{}}; {globals_js}</script>'
        '<script src="searchtools.js"></script><script src="kb-scorer.js"></script></body></html>', encoding="utf-8")


def test_the_scorer_ranks_for_questions(tmp_path):
    """kb-scorer.js on Sphinx's own searchtools.js, with a small index: a page that dwells on a
    word ranks above one that only mentions it, and a word that most pages hold ("turn") does not
    drop the page that lacks it; a stop word ("in") earns no title bonus from a title that holds
    its letters ("Vectorizing")."""
    from tools.browser import chromium, serve

    scorer_page(tmp_path)
    names = ["precision", "vmap", "other", "d", "e", "f", "g", "h"]
    index = {"docnames": names, "titles": ["Matmul precision", "Vectorizing", "Other", *names[3:]],
             "filenames": [f"{name}.md" for name in names],
             "terms": {"tf32": [0, 1, 2], "turn": [1, 2, 3, 4, 5], "kernel": [1, 2]},
             "titleterms": {}, "alltitles": {}, "indexentries": {}, "objects": {},
             "objnames": {}, "objtypes": {}, "kbdwell": {"tf32": 0, "kernel": 2}}
    with serve(tmp_path) as base, chromium() as browser:
        page = browser.new_page()
        page.goto(f"{base}/search.html")
        ranked = page.evaluate("""(index) => {
            Search.setIndex(index);
            const run = (query, terms) => {
                history.replaceState(null, "", "?q=" + encodeURIComponent(query));
                return Search.performTermsSearch(new Set(terms), new Set())
                    .map((r) => [r[0], Scorer.score(r)]).sort((a, b) => b[1] - a[1]).map((r) => r[0]);
            };
            return {tf32: run("turn off tf32", ["turn", "tf32"]), kernel: run("kernel in", ["kernel"])};
        }""", index)
    assert ranked["tf32"][0] == "precision", ranked  # it never says "turn", and dwells on tf32
    assert ranked["kernel"] == ["other", "vmap"], ranked  # "in" does not name "Vectorizing"


def test_an_action_asked_about_does_not_decide_the_pages(tmp_path):
    """A word the Chinese splitter marks as the action a question asks about (KB_PHRASING: 实现 in
    KV 缓存怎么实现) adds to a page's score but does not drop the page that answers and never says
    it; without the mark, every word decides."""
    from tools.browser import chromium, serve

    scorer_page(tmp_path, "var KB_PHRASING = new Set();")
    names = ["generate", "train", "port", "d", "e", "f", "g", "h"]
    index = {"docnames": names, "titles": ["用 KV 缓存生成", "训练", "移植", *names[3:]],
             "filenames": [f"{name}.md" for name in names],
             "terms": {"缓存": [1, 2, 3], "kv": [1, 2, 3], "实现": [1, 2, 3]}, "titleterms": {"缓存": 0, "kv": 0},
             "alltitles": {}, "indexentries": {}, "objects": {}, "objnames": {}, "objtypes": {}, "kbdwell": {}}
    with serve(tmp_path) as base, chromium() as browser:
        page = browser.new_page()
        page.goto(f"{base}/search.html")
        ranked = page.evaluate("""(index) => {
            Search.setIndex(index);
            const run = (phrasing) => {
                KB_PHRASING = new Set(phrasing);
                history.replaceState(null, "", "?q=" + encodeURIComponent("KV缓存怎么实现"));
                return Search.performTermsSearch(new Set(["kv", "缓存", "实现"]), new Set())
                    .map((r) => [r[0], r[4]]).sort((a, b) => b[1] - a[1]).map((r) => r[0]);
            };
            return {marked: run(["实现"]), unmarked: run([])};
        }""", index)
    assert ranked["marked"][0] == "generate", ranked
    assert "generate" not in ranked["unmarked"], ranked


def test_a_page_whose_titles_hold_the_rare_words_is_listed(tmp_path):
    """A page whose titles hold every rare word of the query (KB_RARE) is listed though its text
    lacks a commoner word of the question, which three other pages happen to hold; a page that only
    mentions the rare word in its text and lacks the other is not (kb-scorer.js, 3)."""
    from tools.browser import chromium, serve

    scorer_page(tmp_path)
    names = [f"p{i}" for i in range(50)]  # "libtpu" on 5 of 50 pages: rare (KB_RARE, 10 %)
    index = {"docnames": names, "titles": ["Installing libtpu", *names[1:]],
             "filenames": [f"{name}.md" for name in names],
             "terms": {"libtpu": [0, 1, 2, 3, 4], "goe": [1, 2, 3, 5, 6, 7]}, "titleterms": {"libtpu": 0, "goe": 8},
             "alltitles": {}, "indexentries": {}, "objects": {}, "objnames": {}, "objtypes": {}, "kbdwell": {}}
    with serve(tmp_path) as base, chromium() as browser:
        page = browser.new_page()
        page.goto(f"{base}/search.html")
        listed = page.evaluate("""(index) => {
            Search.setIndex(index);
            history.replaceState(null, "", "?q=libtpu%20goes");
            return Search.performTermsSearch(new Set(["libtpu", "goe"]), new Set()).map((r) => r[0]).sort();
        }""", index)
    assert listed == ["p0", "p1", "p2", "p3"], listed  # p4 holds libtpu in its text only
