"""kb.downloads: a section index is read again when its section gains or loses a program."""

from __future__ import annotations

from types import SimpleNamespace

from kb import downloads


def _app(tmp_path):
    (tmp_path / "snippets" / "sec").mkdir(parents=True)
    (tmp_path / "snippets" / "sec" / "a.py").write_text("print(1)\n")
    return SimpleNamespace(srcdir=str(tmp_path), config=SimpleNamespace(kb_snippets_dir="snippets"))


def test_an_index_whose_section_gained_a_program_is_outdated(tmp_path):
    app = _app(tmp_path)
    env = SimpleNamespace(found_docs={"sec/index", "sec/page", "other/index"})
    downloads._counts(env).update({"sec/index": 1, "other/index": 0})
    assert downloads.outdated_section_indexes(app, env, set(), set(), set()) == []
    (tmp_path / "snippets" / "sec" / "b.py").write_text("print(2)\n")
    assert downloads.outdated_section_indexes(app, env, set(), set(), set()) == ["sec/index"]
    # a page Sphinx reads anyway is not named twice; a removed page is not named at all
    assert downloads.outdated_section_indexes(app, env, set(), {"sec/index"}, set()) == []
    env.found_docs.discard("sec/index")
    assert downloads.outdated_section_indexes(app, env, set(), set(), set()) == []
    # an index read before its count was kept (an older environment) is read once more
    env.found_docs.add("new/index")
    assert downloads.outdated_section_indexes(app, env, set(), set(), set()) == ["new/index"]


def test_counts_follow_parallel_reads_and_purges(tmp_path):
    env, other = SimpleNamespace(), SimpleNamespace()
    downloads._counts(other).update({"sec/index": 3, "x/index": 1})
    downloads.merge_counts(None, env, {"sec/index"}, other)
    assert downloads._counts(env) == {"sec/index": 3}
    downloads.purge_count(None, env, "sec/index")
    assert downloads._counts(env) == {}
