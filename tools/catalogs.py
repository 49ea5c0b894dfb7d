"""Translation catalogues: what is translated, what is broken, and keeping them tidy.

- Page catalogues: ``docs/locales/<language>/LC_MESSAGES/<page>.po`` (made by ``nox -s i18n``).
- The interface catalogue of our extensions: ``docs/_ext/kb/locales/<language>/LC_MESSAGES/kb.po``
  (``kb.translations``); ``update_interface_catalogue`` adds the strings the code asks for.
- ``catalogs(language)`` lists both kinds; ``catalog_report`` says, for one, what is untranslated,
  fuzzy or has broken markup; ``markup_problems`` compares a translation's MyST markup with its
  source.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .site import LOCALES, TRANSLATIONS  # first: importing conf makes docs/_ext/kb importable

from kb.translations import catalogue_path, interface_messages  # noqa: E402

ROLE_RE = re.compile(r"\{([a-z][a-z0-9:+-]*)\}`([^`]*)`")  # MyST role names are lower case
CODE_RE = re.compile(r"(`+)(.+?)\1")
LINK_RE = re.compile(r"\]\(([^)\s]+)\)")


def _role_target(content: str) -> str:
    """The part of a role's content that must not be translated: `text <target>` -> target."""
    m = re.search(r"<([^<>]+)>\s*$", content)
    return m.group(1) if m else content


def markup_of(text: str) -> dict[str, list[str]]:
    """The inline markup a translation must keep: roles with their targets, code, link targets.

    >>> markup_of("Use {ref}`the guide <start-guide>` and `jax.jit` ([docs](https://x.org/a)).")
    {'roles': ['ref:start-guide'], 'code': ['jax.jit'], 'links': ['https://x.org/a']}
    """
    roles = [f"{name}:{_role_target(content)}" for name, content in ROLE_RE.findall(text)]
    rest = ROLE_RE.sub(" ", text)
    code = [m.group(2).strip() for m in CODE_RE.finditer(rest)]
    return {"roles": sorted(roles), "code": sorted(set(code)), "links": sorted(LINK_RE.findall(text))}


def markup_problems(msgid: str, msgstr: str) -> list[str]:
    """Why a translation would render differently from its source (empty list: none).

    >>> markup_problems("Call `jax.jit` first.", "先调用 `jax.jit`。")
    []
    >>> markup_problems("See {ref}`start-guide`.", "参见 {ref}`start-guide。")
    ['unbalanced backquotes: the markup is broken', 'role {ref}`start-guide` is missing or changed']
    >>> markup_problems("Call `jax.jit` first.", "先调用 `jax.grad`。")
    ['code `jax.jit` is missing or changed']
    """
    problems = []
    stripped = re.sub(r"(`+)(.+?)\1", "", ROLE_RE.sub("", msgstr))
    if "`" in stripped:
        problems.append("unbalanced backquotes: the markup is broken")
    source, target = markup_of(msgid), markup_of(msgstr)
    for role in source["roles"]:
        if source["roles"].count(role) != target["roles"].count(role):
            name, _, ref = role.partition(":")
            problems.append(f"role {{{name}}}`{ref}` is missing or changed")
    for code in source["code"]:
        if code not in target["code"]:
            problems.append(f"code `{code}` is missing or changed")
    for link in source["links"]:
        if link not in target["links"]:
            problems.append(f"link target ({link}) is missing or changed")
    return list(dict.fromkeys(problems))


@dataclass
class CatalogReport:
    path: Path
    total: int = 0
    translated: int = 0
    fuzzy: list = field(default_factory=list)
    untranslated: list = field(default_factory=list)
    obsolete: int = 0
    broken: list = field(default_factory=list)  # (entry, problems)


def catalog_report(path: Path) -> CatalogReport:
    import polib

    catalog = polib.pofile(str(path))
    report = CatalogReport(path)
    for entry in catalog:
        if entry.obsolete:
            report.obsolete += 1
            continue
        report.total += 1
        if "fuzzy" in entry.flags:
            report.fuzzy.append(entry)
        elif not entry.msgstr.strip():
            report.untranslated.append(entry)
        else:
            report.translated += 1
            problems = markup_problems(entry.msgid, entry.msgstr)
            if problems:
                report.broken.append((entry, problems))
    return report


def catalogs(language: str = TRANSLATIONS[0], locales: Path = LOCALES) -> list[Path]:
    """Every catalogue of one language: the pages' and, for the site's own locales, kb's."""
    found = sorted((locales / language / "LC_MESSAGES").rglob("*.po"))
    interface = catalogue_path(language)
    return found + [interface] if locales == LOCALES and interface.is_file() else found


def where(entry) -> str:
    """Where an entry's text stands in the English source, e.g. `docs/start/x.md:12`."""
    return ", ".join(f"{file}:{line}" for file, line in entry.occurrences) or "(no location)"


def normalize_catalogue(path: Path) -> None:
    """Tidy what sphinx-intl writes: no fuzzy header, no obsolete entries, source locations
    relative to the repository."""
    import polib

    catalog = polib.pofile(str(path), wrapwidth=0)
    catalog.metadata_is_fuzzy = False
    for entry in catalog.obsolete_entries():  # strings no page has any more
        catalog.remove(entry)
    for entry in catalog:
        entry.occurrences = [(re.sub(r"^(\.\./)+(?=docs/)", "", file), line) for file, line in entry.occurrences]
    catalog.save()


def missing_interface_messages(language: str) -> list[str]:
    """The ``_("...")`` strings of the kb modules that the language's kb.po lacks."""
    import polib

    po = catalogue_path(language)
    known = {e.msgid for e in polib.pofile(str(po))} if po.is_file() else set()
    return [msgid for msgid in interface_messages() if msgid not in known]


def update_interface_catalogue(language: str) -> Path:
    """Bring kb.po of ``language`` in line with the code: new strings added untranslated,
    strings no module asks for any more removed, locations refreshed."""
    import polib

    po_path = catalogue_path(language)
    po_path.parent.mkdir(parents=True, exist_ok=True)
    catalog = polib.pofile(str(po_path), wrapwidth=0) if po_path.is_file() else polib.POFile(wrapwidth=0)
    if not catalog.metadata:
        catalog.metadata = {"Language": language, "MIME-Version": "1.0",
                            "Content-Type": "text/plain; charset=UTF-8", "Content-Transfer-Encoding": "8bit"}
    messages = interface_messages()
    old = {entry.msgid: entry for entry in catalog}
    entries = [polib.POEntry(msgid=msgid, msgstr=old[msgid].msgstr if msgid in old else "",
                             flags=old[msgid].flags if msgid in old else [], occurrences=where_)
               for msgid, where_ in messages.items()]
    catalog[:] = entries
    catalog.save(str(po_path))
    return po_path
