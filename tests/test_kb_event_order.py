"""The event-order table in kb/__init__.py's docstring is what the modules' setup() register
(review F24): every handler each module connects, and every transform it adds, in the order Sphinx
runs them. A handler connected but not in the table, or one the table lists that no setup()
connects, or a row out of order, fails here."""

from __future__ import annotations

import importlib
import re
from types import SimpleNamespace

import kb
from tools.site import ROOT

# The events our modules connect, in the order a build emits them (Sphinx 9.1: application.py,
# builders/__init__.py); "transform" stands for the transforms run while each page is parsed,
# between source-read and doctree-read. A new event goes here first, in its place.
EVENT_ORDER = ["config-inited", "builder-inited", "env-get-outdated", "env-purge-doc", "source-read",
               "transform", "doctree-read", "env-merge-info", "doctree-resolved", "html-page-context",
               "build-finished"]
RULE = re.compile(r"^=+( +=+)+$")


class RecordingApp:
    """Stands in for Sphinx's application: records connect() and add_transform(); every other
    registration (config values, directives, third-party extensions) is accepted and ignored."""

    def __init__(self):
        self.config = SimpleNamespace(language="en")  # kb.translations compiles no catalogue for English
        self.module = ""
        self.registered: list[tuple[str, int, str]] = []

    def connect(self, event: str, callback, priority: int = 500) -> None:
        self.registered.append((event, priority, f"{self.module}.{callback.__name__}"))

    def add_transform(self, transform) -> None:
        self.registered.append(("transform", transform.default_priority, f"{self.module}.{transform.__name__}"))

    def add_post_transform(self, transform) -> None:
        self.registered.append(("post-transform", transform.default_priority, f"{self.module}.{transform.__name__}"))

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


def registered() -> list[tuple[str, int, str]]:
    """What every module's setup() registers, in the order Sphinx runs it: by event, then priority,
    then registration (the order of kb.MODULES; Sphinx sorts each event's listeners stably)."""
    app = RecordingApp()
    for name in kb.MODULES:
        app.module = name.removeprefix("kb.")
        importlib.import_module(name).setup(app)
    unknown = sorted({event for event, _, _ in app.registered if event not in EVENT_ORDER})
    assert not unknown, f"events missing from EVENT_ORDER (put them in their place in a build): {unknown}"
    return sorted(app.registered, key=lambda row: (EVENT_ORDER.index(row[0]), row[1]))


def table(docstring: str) -> list[tuple[str, int, str]]:
    """The rows of the docstring's event-order table: (event, priority, module.handler).

    >>> table("x\\n=== == ===\\nevent prio handler\\n=== == ===\\na 500 m.f  why\\nb 10 m.g\\n=== == ===\\n")
    [('a', 500, 'm.f'), ('b', 10, 'm.g')]
    """
    lines = docstring.splitlines()
    rules = [i for i, line in enumerate(lines) if RULE.match(line)]
    assert len(rules) == 3, f"the event-order table (three rule lines) is not in the docstring: {rules}"
    rows = []
    for line in lines[rules[1] + 1:rules[2]]:
        event, priority, handler = line.split(None, 3)[:3]
        rows.append((event, int(priority), handler))
    return rows


def test_the_table_is_what_the_modules_register_in_sphinx_order():
    documented, actual = table(kb.__doc__), registered()
    missing = [row for row in actual if row not in documented]
    extra = [row for row in documented if row not in actual]
    assert not missing and not extra, (f"connected but not in kb/__init__.py's table: {missing}; "
                                       f"in the table but connected by no setup(): {extra}")
    assert documented == actual, "the table's rows are not in the order Sphinx runs them:\n" + "\n".join(
        f"{e:<18} {p:<5} {h}" for e, p, h in actual)


def test_every_module_with_a_setup_is_set_up():
    """A module with a setup() that kb.MODULES leaves out would register nothing at all."""
    package = ROOT / "docs" / "_ext" / "kb"
    with_setup = {f"kb.{path.stem}" for path in package.glob("*.py")
                  if path.stem != "__init__" and re.search(r"^def setup\(", path.read_text(encoding="utf-8"), re.M)}
    assert with_setup == set(kb.MODULES), sorted(with_setup ^ set(kb.MODULES))
