"""The site's root: the language-choosing ``index.html`` and the root ``llms.txt``, written from the
language table (``kb_languages`` in ``conf.py``), so that a language added to the table is offered there.

    python -m tools.root_pages OUT    write OUT/index.html and OUT/llms.txt (nox does, after the builds)

The site's own words are templates in ``docs/_root/`` (``index.template.html``,
``llms.template.txt``; ``string.Template``); what names the languages is filled in from the table:

- ``index.html``: ``<html lang>``, the favicon and the default are the source language's; one
  ``hreflang`` alternate per language and ``x-default``; the script sends a browser whose language
  starts with the primary subtag of a language's ``hreflang`` (``zh`` of ``zh-CN``) to that
  language's build, the source language's otherwise; one link per language, each in its own
  ``lang``. Two languages of one primary subtag (``zh-CN`` and ``zh-TW``) would need a finer rule:
  the generator stops and says so.
- ``llms.txt``: the languages' labels, and one line per language: its ``llms.txt`` and its ``pages``.

The templates' prose (the titles, "bilingual", "中文/English") is the site's own, written by hand.
"""

from __future__ import annotations

import html
import sys
from pathlib import Path
from string import Template

from .site import DOCS, SOURCE_LANGUAGE

TEMPLATES = DOCS / "_root"


def browser_prefix(hreflang: str) -> str:
    """What a browser's language must start with to be this language: the primary subtag.

    >>> browser_prefix("zh-CN"), browser_prefix("en")
    ('zh', 'en')
    """
    return hreflang.split("-")[0].lower()


def index_html(table: dict[str, dict], template: str) -> str:
    """The root page: ``template`` with the languages of ``table`` filled in (the first is the source)."""
    source = next(iter(table))
    prefixes: dict[str, str] = {}
    for code, entry in table.items():
        prefix = browser_prefix(entry["hreflang"])
        if prefix in prefixes:
            raise ValueError(f"kb_languages: {prefixes[prefix]} and {code} share the browser language {prefix!r}; "
                             "the root page cannot choose between them (tools/root_pages.py needs a finer rule)")
        prefixes[prefix] = code
    alternates = [f'<link rel="alternate" hreflang="{entry["hreflang"]}" href="{code}/index.html">'
                  for code, entry in table.items()]
    alternates.append(f'<link rel="alternate" hreflang="x-default" href="{source}/index.html">')
    # The other languages first; the source language's line only ends the search (it is the default).
    choices = [f'      if (l.indexOf("{prefix}") === 0) {{ target = "{prefixes[prefix]}/index.html"; break; }}'
               for prefix in prefixes if prefixes[prefix] != source]
    choices.append(f'      if (l.indexOf("{browser_prefix(table[source]["hreflang"])}") === 0) {{ break; }}')
    links = [f'<a href="{code}/index.html">{html.escape(entry["label"])}</a>' if code == source else
             f'<a href="{code}/index.html" lang="{entry["hreflang"]}">{html.escape(entry["label"])}</a>'
             for code, entry in table.items()]
    return Template(template).substitute(
        source=source, source_hreflang=table[source]["hreflang"], source_label=table[source]["label"],
        alternates="\n".join(alternates), choices="\n".join(choices), links=" · ".join(links))


def llms_txt(table: dict[str, dict], template: str) -> str:
    """The root ``llms.txt``: a list of the languages' own.

    >>> print(llms_txt({"en": {"label": "English", "pages": "the pages in English"},
    ...                 "fr": {"label": "Français", "pages": "les pages en français"}}, "($labels)\\n$languages"))
    (English / Français)
    - [English](en/llms.txt): the pages in English
    - [Français](fr/llms.txt): les pages en français
    """
    return Template(template).substitute(
        labels=" / ".join(entry["label"] for entry in table.values()),
        languages="\n".join(f"- [{entry['label']}]({code}/llms.txt): {entry['pages']}"
                             for code, entry in table.items()))


def root_files(table: dict[str, dict] | None = None, templates: Path = TEMPLATES) -> dict[str, str]:
    """The root files' names and texts, from ``table`` (default: conf.py's, checked by kb.languages)."""
    if table is None:
        import conf
        from kb.languages import check_table

        table = conf.kb_languages
        problems = check_table(table, SOURCE_LANGUAGE)
        if problems:
            raise ValueError("; ".join(problems))
    return {"index.html": index_html(table, (templates / "index.template.html").read_text(encoding="utf-8")),
            "llms.txt": llms_txt(table, (templates / "llms.template.txt").read_text(encoding="utf-8"))}


def write_root_files(out: Path, table: dict[str, dict] | None = None) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in root_files(table).items():
        (out / name).write_text(text, encoding="utf-8")
        written.append(out / name)
    return written


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python -m tools.root_pages OUT (the folder that holds the language builds)")
    write_root_files(Path(sys.argv[1]))
