"""kb.floors: each page says the oldest releases of jax, flax and optax its programs run on.

1. The data are the committed floor reports, ``docs/_data/floors/<package>-<version>.json``
   (``kb_floors``), written by ``nox -s canary -- --floors`` (``tools/canary.py``): one per older
   release of one package, each with its date, machine and, per snippet, the SHA-256 of the
   snippet's bytes and pass or fail (with the error and the API-drift message). A package's
   reports are walked newest first; a snippet that failed one release is not tried on older ones.
2. ``page_floor(snippets, reports, pin)`` gives, for one page and one package, the oldest
   release on which every one of the page's programs that uses the package passed (the pin when
   even the newest older release failed), and the release below it with the first failure. A
   package none of the page's programs uses has no floor. A claim is made only from reports that
   checked the page's snippets **as they are now**: if one was edited or added since (its hash
   differs or it is missing), nothing is said for that package until the canary runs again.
   Each floor was checked with the other packages at their pins; a program that loads a package
   whose own requirements that set breaks (flax 0.12.12 with jax 0.10.2) is "not installable"
   there, a failure like any other.
3. **A set pip can install.** The floors a page names together are one set of releases, and each
   release's own requirements (``Requires-Dist``, which every report keeps for the packages it
   followed: ``requirements_of``) must admit the others: ``impossible`` says what breaks, and a
   page whose set is impossible, or whose releases' requirements no report recorded, says
   nothing (``floors_of``); tests/test_kb_floors.py fails on such a page.
4. The header box (``kb.page.put_in_header``) gets a line after the provenance line: "Runs on jax
   ≥ A, flax ≥ B (the oldest releases checked, on <date>)", worded in the build's language and
   linking each version to its release on PyPI, and to the migration page's table.
5. ``{kb-floors-table}`` (on ``reference/migration``) is that table for every page: the floor of
   each package, linked to the release, and what fails on the release below it.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.util.docutils import SphinxDirective

from .mode import shows_outputs
from .page import loaded_snippets, put_in_header, site_plan
from .run.plan import snippet_digest
from .run.platforms import canonical
from .run.store import pinned_versions
from .translations import _, separator

PACKAGES = ("jax", "flax", "optax")
# Each version links to its release on PyPI (date, files; the project's own links lead to its
# changelog): the one address that exists for every release pip can install.
RELEASES = {package: "https://pypi.org/project/" + package + "/{version}/" for package in PACKAGES}
TABLE_PAGE, TABLE_LABEL = "reference/migration", "ref-migration-floors"


def version_key(version: str) -> tuple:
    """A version as a tuple that sorts as releases do.

    >>> sorted(["0.9.2", "0.10.2", "0.12.0.1"], key=version_key)
    ['0.9.2', '0.10.2', '0.12.0.1']
    """
    return tuple(int(p) if p.isdigit() else -1 for p in re.split(r"[.+-]", version))


@lru_cache(maxsize=None)
def _load(folder: str, stamp: tuple) -> dict[str, list[dict[str, Any]]]:
    reports: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(Path(folder).glob("*.json")):
        report = json.loads(path.read_text(encoding="utf-8"))
        reports.setdefault(report["package"], []).append(report)
    for found in reports.values():
        found.sort(key=lambda r: version_key(r["version"]), reverse=True)
    return reports


def load_reports(folder: Path) -> dict[str, list[dict[str, Any]]]:
    """Each package's floor reports, newest release first."""
    paths = sorted(folder.glob("*.json"))
    return _load(str(folder), tuple((p.name, p.stat().st_mtime_ns) for p in paths))


def page_floor(snippets: dict[str, str], reports: list[dict[str, Any]], pin: str) -> dict[str, Any] | None:
    """One package's floor for a page whose snippets (name -> SHA-256) are given.

    >>> r1 = {"version": "0.2", "date": "d", "snippets": {"a": {"status": "pass", "sha256": "x"},
    ...       "b": {"status": "not affected", "sha256": "y"}}}
    >>> r2 = {"version": "0.1", "date": "d", "snippets": {"a": {"status": "fail", "sha256": "x",
    ...       "error": "E", "drift": "AttributeError: no f"}}}
    >>> page_floor({"a": "x", "b": "y"}, [r1, r2], "0.3")["floor"], page_floor({"a": "x"}, [r1, r2], "0.3")["below"]
    ('0.2', {'version': '0.1', 'snippet': 'a', 'error': 'E', 'drift': 'AttributeError: no f', 'line': None})
    >>> page_floor({"b": "y"}, [r1, r2], "0.3") is None  # no program of the page uses it
    True
    >>> page_floor({"a": "edited"}, [r1, r2], "0.3") is None  # checked before the last edit: say nothing
    True
    """
    if not reports:
        return None
    first = reports[0]["snippets"]
    if any(name not in first or first[name]["sha256"] != sha for name, sha in snippets.items()):
        return None
    uses = [name for name in snippets if first[name]["status"] != "not affected"]
    if not uses:
        return None
    floor, below, date = pin, None, reports[0]["date"]
    for report in reports:
        entries = [report["snippets"].get(name) for name in uses]
        if any(e is None or e["sha256"] != snippets[name] for e, name in zip(entries, uses)):
            break
        failing = [(name, e) for name, e in zip(uses, entries) if e["status"] != "pass"]
        if failing:
            name, e = failing[0]
            below = {"version": report["version"], "snippet": name, "error": e.get("error"), "drift": e.get("drift"),
                     "line": e.get("line")}
            break
        floor, date = report["version"], max(date, report["date"])
    return {"floor": floor, "below": below, "date": date, "oldest_checked": reports[-1]["version"]}


def requirements_of(reports: dict[str, list[dict[str, Any]]]) -> dict[tuple[str, str], list[str]]:
    """Each release's own requirements, as the reports recorded them: (package, version) -> the
    ``Requires-Dist`` lines that apply to a plain install (the pins' come from the walks of the
    other packages, where they stayed installed)."""
    table: dict[tuple[str, str], list[str]] = {}
    for found in reports.values():
        for report in found:
            for name, entry in report.get("requires", {}).items():
                table.setdefault((canonical(name), entry["version"]), entry["requires"])
    return table


def impossible(named: dict[str, str], requirements: dict[tuple[str, str], list[str]]) -> list[str]:
    """Why pip cannot install the releases a floor line names together (empty: it can).

    >>> table = {("flax", "0.12.12"): ["jax>=0.11.1", "optax"], ("jax", "0.10.2"): ["jaxlib<=0.10.2,>=0.10.2"],
    ...          ("jax", "0.11.2"): ["jaxlib<=0.11.2,>=0.11.2"]}
    >>> impossible({"jax": "0.10.2", "flax": "0.12.12"}, table)
    ['flax 0.12.12 requires jax>=0.11.1, not jax 0.10.2']
    >>> impossible({"jax": "0.11.2", "flax": "0.12.12"}, table)
    []
    >>> impossible({"jax": "0.11.2", "optax": "0.2.4"}, table)
    ['optax 0.2.4: no report recorded its requirements']
    """
    from packaging.requirements import Requirement

    problems = []
    for package, version in named.items():
        written = requirements.get((package, version))
        if written is None:
            problems.append(f"{package} {version}: no report recorded its requirements")
            continue
        for text in written:
            requirement = Requirement(text)
            other = canonical(requirement.name)
            if other in named and not requirement.specifier.contains(named[other], prereleases=True):
                problems.append(f"{package} {version} requires {text}, not {other} {named[other]}")
    return problems


def report_problems(report: dict[str, Any], loads) -> list[str]:
    """What makes a floor report claim a pass on releases that pip cannot install together (empty:
    nothing). ``loads(snippet, sha256)`` gives the distributions a program loads, its child
    processes' and their requirements included (None: the program changed since the report).

    >>> report = {"format": 2, "install": {"ok": True}, "conflicts": {}, "snippets": {
    ...     "f.py": {"status": "pass", "sha256": "h"}}, "requires": {
    ...     "flax": {"version": "0.12.12", "requires": ["jax>=0.11.1"]}, "jax": {"version": "0.10.2", "requires": []}}}
    >>> report_problems(report, lambda name, sha: {"flax", "jax"})
    ['flax 0.12.12 requires jax>=0.11.1, not jax 0.10.2, and the report does not say so', 'f.py passes on jax 0.10.2 with flax 0.12.12, which pip cannot install together']
    """
    from packaging.requirements import Requirement

    if report.get("format", 1) < 2 or "requires" not in report:
        return [f"{report.get('package')} {report.get('version')}: written before reports kept requirements "
                "(walk the floors again)"]
    if not report["install"]["ok"]:
        return [f"{report['package']} {report['version']}: did not install"]
    problems, broken = [], set(report.get("conflicts", {}))
    versions = {name: entry["version"] for name, entry in report["requires"].items()}
    for name, entry in report["requires"].items():
        for text in entry["requires"]:
            requirement = Requirement(text)
            other = canonical(requirement.name)
            if other in versions and not requirement.specifier.contains(versions[other], prereleases=True):
                if name not in report.get("conflicts", {}):
                    problems.append(f"{name} {entry['version']} requires {text}, not {other} {versions[other]}, "
                                    "and the report does not say so")
                broken.add(name)
    for snippet, e in report["snippets"].items():
        if e["status"] != "pass":
            continue
        found = loads(snippet, e["sha256"])
        bad = sorted((found or set()) & broken)
        if bad:
            where = ", ".join(f"{n} {versions[n]}" for n in sorted(report.get("changed", {})) if n in versions) \
                or ", ".join(f"{n} {versions[n]}" for n in sorted(versions) if n not in bad)
            problems.append(f"{snippet} passes on {where} with {', '.join(f'{n} {versions[n]}' for n in bad)}, "
                            "which pip cannot install together")
    return problems


def page_floors(srcdir: Path, floors_dir: str, snippet_names: list[str]) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Every package's floor for a page's snippets (names from the repository root), and what
    makes the set they name one that pip cannot install (``impossible``; empty when it can)."""
    root = Path(srcdir).parent
    folder = Path(srcdir, floors_dir).resolve()
    reports = load_reports(folder)
    if not reports:  # a project without floor reports (the test fixtures) says nothing, reads nothing
        return {}, []
    pinned = pinned_versions(root / "requirements.txt")
    shas = {}
    for name in snippet_names:
        path = root / name
        if path.is_file():
            shas[name] = snippet_digest(path)
    out = {}
    for package in PACKAGES:
        found = page_floor(shas, reports.get(package, []), pinned.get(package, "?"))
        if found is not None:
            out[package] = found
    return out, impossible({p: f["floor"] for p, f in out.items()}, requirements_of(reports)) if out else []


def floors_of(srcdir: Path, floors_dir: str, snippet_names: list[str]) -> dict[str, dict[str, Any]]:
    """The floors a page shows: none where the set they name is not one pip can install."""
    floors, problems = page_floors(srcdir, floors_dir, snippet_names)
    return {} if problems else floors


def release_links(floors: dict[str, dict[str, Any]]) -> list[nodes.Node]:
    """"jax ≥ A, flax ≥ B": each floor linked to its release, in the build's language."""
    between = separator(_("{package}, {next_package}"))
    out: list[nodes.Node] = []
    for package, found in floors.items():
        if out:
            out.append(nodes.Text(between))
        out.append(nodes.reference("", f"{package} ≥ {found['floor']}", classes=["kb-release"],
                                   refuri=RELEASES[package].format(version=found["floor"])))
    return out


def floors_paragraph(docname: str, floors: dict[str, dict[str, Any]]) -> nodes.paragraph:
    para = nodes.paragraph(classes=["kb-floors"])
    para += nodes.strong(text=str(_("Runs on")))
    para += nodes.Text(" ")
    para += release_links(floors)
    date = max(f["date"] for f in floors.values())
    para += nodes.Text(str(_(" (the oldest releases its programs pass on, checked {date}; ")).format(date=date))
    para += xref("ref", TABLE_LABEL, nodes.inline(text=str(_("what fails below them"))), docname)
    para += nodes.Text(str(_(").")))
    return para


def failing_line(path: Path, line: int | None) -> str | None:
    """The source line a failure points at (the snippet is the one checked: its hash matched)."""
    if not line or not path.is_file():
        return None
    lines = path.read_text(encoding="utf-8").splitlines()
    text = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    return (text[:120] + " …") if len(text) > 120 else text or None


def xref(kind: str, target: str, content: nodes.Node, docname: str) -> addnodes.pending_xref:
    """A link Sphinx resolves for every builder (HTML, and kb.markdown's pages)."""
    ref = addnodes.pending_xref("", refdomain="std", reftype=kind, reftarget=target, refexplicit=True,
                                refwarn=True, refdoc=docname)
    ref += content
    return ref


def note_reports(env, folder: Path) -> None:
    """The page is read again when a report changes (each report is a dependency of the page).

    A report added or removed is caught by ``reports_added_or_removed``, not by making the folder
    a dependency: Sphinx takes a dependency that is not a file as changed on every build, so every
    page was read again by every build, a warm one included (``nox -s bench`` on 2026-12-05: a
    warm rebuild of both languages 48.5 s before this change, 6.3 s after)."""
    for path in folder.glob("*.json"):
        env.note_dependency(path)


def report_names(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.glob("*.json"))


def reports_added_or_removed(app, env, added, changed, removed) -> list[str]:
    """``env-get-outdated``: every page again when the set of reports is not the last build's."""
    if not shows_outputs(app.config):
        return []
    names = report_names(Path(app.srcdir, app.config.kb_floors).resolve())
    before = getattr(env, "kb_floor_reports", None)
    env.kb_floor_reports = names  # pickled with the environment, for the next build
    if before is None or before == names:
        return []
    return sorted(env.found_docs - added - changed - removed)


def add_floors(app, doctree: nodes.document) -> None:
    if not shows_outputs(app.config):
        return
    note_reports(app.env, Path(app.srcdir, app.config.kb_floors).resolve())
    floors = floors_of(Path(app.srcdir), app.config.kb_floors, loaded_snippets(doctree))
    if not floors:
        return
    put_in_header(doctree, "runs-on", floors_paragraph(app.env.docname, floors))


class FloorsTable(SphinxDirective):
    """``{kb-floors-table}``: every page's floors, and what fails below them."""

    def run(self) -> list[nodes.Node]:
        note_reports(self.env, Path(self.env.srcdir, self.config.kb_floors).resolve())
        srcdir = Path(self.env.srcdir)
        root = srcdir.parent
        pages = site_plan(srcdir, self.config).pages
        for docname, names in pages.items():  # the table is read again when a page or a program changes
            self.env.note_dependency(self.env.doc2path(docname))
            for name in names:
                self.env.note_dependency(root / name)
        table = nodes.table(classes=["kb-floors-table"])
        group = nodes.tgroup(cols=3)
        table += group
        for width in (30, 25, 45):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        group += head
        head += self._row([nodes.Text(str(_("Pages"))), nodes.Text(str(_("Runs on"))),
                           nodes.Text(str(_("What fails on the release below")))])
        body = nodes.tbody()
        group += body
        for docname in sorted(pages):
            names = pages[docname]
            floors = floors_of(srcdir, self.config.kb_floors, names) if names else {}
            if not floors:
                continue
            link = nodes.paragraph()
            link += xref("doc", f"/{docname}", nodes.literal(text=docname), self.env.docname)
            runs = nodes.paragraph("", "", *release_links(floors))
            fails = nodes.paragraph()
            between = separator(_("{failure} {next_failure}"))
            for package, found in floors.items():
                below = found["below"]
                if below is None:
                    continue
                if len(fails.children):
                    fails += nodes.Text(between)
                fails += nodes.Text(str(_("{package} {version}: ")).format(package=package, version=below["version"]))
                fails += nodes.literal(text=below["drift"] or below["error"] or "?")
                where = Path(below["snippet"]).name
                code = failing_line(root / below["snippet"], below.get("line")) if not below["drift"] else None
                if code:
                    fails += nodes.Text(str(_(" at {snippet}, line {line}: ")).format(snippet=where, line=below["line"]))
                    fails += nodes.literal(text=code)
                else:
                    fails += nodes.Text(str(_(" ({snippet})")).format(snippet=where))
            if not len(fails.children):
                fails += nodes.Text(str(_("nothing: passes on the oldest releases checked")))
            body += self._row([link, runs, fails])
        return [table]

    @staticmethod
    def _row(cells: list[nodes.Node]) -> nodes.row:
        row = nodes.row()
        for content in cells:
            entry = nodes.entry()
            entry += content if isinstance(content, nodes.paragraph) else nodes.paragraph("", "", content)
            row += entry
        return row


def setup(app):
    app.add_config_value("kb_floors", "_data/floors", "env", types=[str])
    app.add_directive("kb-floors-table", FloorsTable)
    app.connect("doctree-read", add_floors)
    app.connect("env-get-outdated", reports_added_or_removed)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
