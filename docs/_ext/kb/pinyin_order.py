"""kb.pinyin_order: a Chinese reader finds terms in pinyin order, as in a Chinese dictionary.

Sphinx orders the general index by code point and heads each group with an entry's first
character, so the Chinese index of this site had one group per character (中, 优, 全, 内 …) in an
order no reader knows. In a build whose language has ``index_order: pinyin`` in ``kb_languages``
(``kb.languages``):

1. The general index is ordered by each entry's pinyin (pypinyin, without tones; Latin text as
   it is, lower-cased, backquotes and brackets ignored) and grouped under the first letter of that
   key, A to Z; entries that start with neither a letter nor a Chinese character go first, under
   Sphinx's own "Symbols" heading (符号).
2. The glossary page lists its terms in the same order (``.. glossary:: :sorted:`` sorts the
   English source; the Chinese terms arrive later, from the catalogue).

No maintained extension orders an index by pinyin; Sphinx's ``IndexEntries`` accepts one category
key per entry, which would make one group per entry, hence this module.
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx.locale import _ as sphinx_

from .languages import behaviour

IGNORED = re.compile(r"[`（）()\[\]“”\"'_.]")


def pinyin_key(text: str) -> str:
    """The sort key of an entry: pinyin syllables and Latin words, lower case.

    >>> [pinyin_key(t) for t in ("重新编译（recompilation）", "`jax.Array`", "全分片数据并行（FSDP）")]
    ['chong xin bian yi recompilation', 'jaxarray', 'quan fen pian shu ju bing xing fsdp']
    """
    from pypinyin import lazy_pinyin

    parts = [IGNORED.sub("", part).strip().lower() for part in lazy_pinyin(text)]
    return " ".join(p for p in parts if p)


def group_of(key: str) -> str | None:
    """The heading letter of a key, or None for the symbols group.

    >>> group_of("quan fen"), group_of("3d mesh")
    ('Q', None)
    """
    return key[:1].upper() if key[:1].isascii() and key[:1].isalpha() else None


def reorder_index(entries: list[tuple[str, list]], symbols: str) -> list[tuple[str, list]]:
    """Sphinx's ``genindexentries`` regrouped by pinyin.

    >>> entries = [("X", [("XLA", 1)]), ("全", [("全收集", 2)]), ("分", [("分片", 3)])]
    >>> reorder_index(entries, "Symbols")
    [('F', [('分片', 3)]), ('Q', [('全收集', 2)]), ('X', [('XLA', 1)])]
    """
    flat = sorted((entry for _, group in entries for entry in group), key=lambda e: (pinyin_key(e[0]), e[0]))
    grouped: dict[str, list] = {}
    for entry in flat:
        grouped.setdefault(group_of(pinyin_key(entry[0])) or symbols, []).append(entry)
    return sorted(grouped.items(), key=lambda item: (item[0] != symbols, item[0]))


def in_pinyin_order(config) -> bool:
    return behaviour(config, "index_order") == "pinyin"


def on_html_page_context(app, pagename: str, templatename: str, context: dict, doctree) -> None:
    if pagename != "genindex" or not in_pinyin_order(app.config) or "genindexentries" not in context:
        return
    regrouped = reorder_index(context["genindexentries"], sphinx_("Symbols"))
    context["genindexentries"] = regrouped
    context["genindexcounts"] = [sum(1 + len(sub) for _, (_, sub, _) in group) for _, group in regrouped]


def sort_glossaries(app, doctree: nodes.document) -> None:
    from sphinx import addnodes

    if not in_pinyin_order(app.config):
        return
    for glossary in doctree.findall(addnodes.glossary):
        for items in glossary.findall(nodes.definition_list):
            children = list(items.children)
            children.sort(key=lambda item: pinyin_key(item.next_node(nodes.term).astext()))
            items.children = []
            items.extend(children)


def setup(app):
    app.connect("html-page-context", on_html_page_context)
    app.connect("doctree-read", sort_glossaries)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
