"""kb.mode: the one switch that decides whether a build runs snippets and shows their outputs.

1. ``kb_mode`` (``conf.py``, or ``-D kb_mode=...`` on the command line) is one of:

   - ``run`` (the default): the source language's HTML build runs every snippet that has no
     good record, then every page shows its records (``kb.execution``);
   - ``run:<page>,<page>`` (``nox -s page``, a drafting aid): the same, but only the named pages'
     snippets run; other pages show the records they have;
   - ``render``: nothing runs; pages show records made elsewhere (the render after sharded runs,
     ``nox -s docs -- --records``), and a snippet without a record fails the build;
   - ``off``: no outputs at all, no records read (linkcheck).

   A value outside these stops the build at once, saying which values exist (as MyST-NB checks
   its ``nb_execution_mode``).
2. ``mode(config)`` parses it, once for every module that asks: ``shows_outputs`` for the
   modules that put outputs or what they ran with on a page (``kb.reader``, ``kb.provenance``,
   ``kb.floors``, ``kb.accelerator_runs``, ``kb.accelerator_status``), ``may_execute`` and
   ``why_not`` for ``kb.execution``. Which languages may run is the language table's ``source``
   field (``kb.languages``): only the source language's build runs snippets; the others read
   its records.

Why our own: MyST-NB's ``nb_execution_mode`` decides whether MyST-NB executes notebooks; here
MyST-NB executes nothing (``nb_execution_mode = "off"``) and our run core does, so the switch is ours.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from sphinx.errors import ConfigError

from .languages import language

NAMES = ("run", "render", "off")


@dataclass(frozen=True)
class Mode:
    name: str  # run, render or off
    pages: frozenset[str] = frozenset()  # run only these pages' snippets (run:<page>,...); empty: all


@lru_cache(maxsize=8)  # every module asks, for every page: parse each value once
def parse(value: str) -> Mode:
    """The mode a ``kb_mode`` value names.

    >>> parse("run"), parse("render").name, sorted(parse("run:core/jit, core/vmap").pages)
    (Mode(name='run', pages=frozenset()), 'render', ['core/jit', 'core/vmap'])
    >>> parse("render:core/jit")
    Traceback (most recent call last):
    sphinx.errors.ConfigError: kb_mode 'render:core/jit': only run takes a list of pages (run:core/jit,core/vmap)
    >>> parse("execute")
    Traceback (most recent call last):
    sphinx.errors.ConfigError: kb_mode 'execute' is not one of run, render, off (or run:<page>,<page>)
    """
    name, colon, pages = str(value).partition(":")
    name = name.strip()
    if name not in NAMES:
        raise ConfigError(f"kb_mode {value!r} is not one of {', '.join(NAMES)} (or run:<page>,<page>)")
    if colon and name != "run":
        raise ConfigError(f"kb_mode {value!r}: only run takes a list of pages (run:core/jit,core/vmap)")
    return Mode(name, frozenset(p.strip() for p in pages.split(",") if p.strip()))


def mode(config) -> Mode:
    return parse(config.kb_mode)


def shows_outputs(config) -> bool:
    """Whether pages show their snippets' outputs (and what the programs ran with)."""
    return mode(config).name != "off"


def may_execute(app) -> bool:
    """Whether this build may run snippets: ``run``, the source language, the HTML builder."""
    return mode(app.config).name == "run" and bool(language(app.config)["source"]) and app.builder.format == "html"


def why_not(app) -> str:
    """Why this build runs no snippet (for the message at a snippet that has no record)."""
    if app.builder.format != "html":
        return f"the {app.builder.name} builder reads outputs from the records"
    name = mode(app.config).name
    if name != "run":
        return f"kb_mode is {name}: it renders records made elsewhere"
    return f"{app.config.language} is not the source language (source: False in kb_languages)"


def check(app, config) -> None:
    mode(config)  # a wrong value stops the build here, before anything runs


def setup(app):
    app.add_config_value("kb_mode", "run", "", types=[str])
    app.connect("config-inited", check)
    return {"version": "2.0", "parallel_read_safe": True, "parallel_write_safe": True}
