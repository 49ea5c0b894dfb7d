"""kb.accelerator_status: every page says how its programs ran on each reported accelerator, and one page lists them all.

1. The data are this build's records (``kb.run.store``: every program of every page ran, alone, in
   this build) and the accelerator machine reports in ``reports/machines/``
   (``kb_machine_reports``, read by ``kb.accelerator_runs.read_reports``; the format is that of
   ``tools/machine/report.py``): per snippet its outcome there (ok, failed, timed out, fell back
   to the CPU, versions differ, not installed here), its first error line and the line of the
   snippet it points at, and the sha256 of the program that ran.
2. ``snippet_status(report, snippet, sha256)`` is one program's status in one report. It is the
   report's outcome only while the program is the one that ran there (the same sha256): a program
   edited since the run is "changed since the run" and one the report lacks is "not run there";
   both count as not run, never as passed. ``page_counts`` tallies a page's programs.
3. The header box (``kb.page.put_in_header``) gets one line per accelerator report, after the
   provenance and floors lines: "TPU v5e, jax 0.10.2, 2026-12-05: 12 of 14 programs ran; 1 failed,
   1 changed since the run" (the report's device, its jax, its date; only what did not pass is
   named), worded in the build's language (statuses, counts and the machine from the interface
   catalogue, ``kb.machines``; never a report's English) and linked to the page's row of the status page
   (``STATUS_DOC``) when the project has one. Without an accelerator report nothing is added.
4. ``{kb-backends-table}`` (on ``reference/backends``) lists the backends (this build, each
   report with its machine, versions that differ from the pins, the pass's command and device
   time, and the platform noise it recorded, with the reason from ``kb.run.noise``; "GPU: none
   yet" and "TPU: none yet" for a backend with no report), then every page against every backend:
   this build's count, and per report the count and each program that did not pass, with its
   status, ``snippet:line`` and first error line. Each row is the target of that page's header line.
   Where a report ran the page's notebook in one kernel (its ``notebooks`` rows, ``tools/machine/
   report.py --notebooks``), the page's cell also says how the notebook fared (``notebook_line``):
   it ran top to bottom in so many seconds, naming each program that printed something else there
   than alone, or it failed with its error, or its programs changed since the run.

Why our own code: the reports are this project's files, and the execution tables of MyST-NB
(``nb-exec-table``) and sphinx-gallery (``sg_execution_times``) list only the build's own runs on
one machine; neither reads another machine's run nor knows that an edited program's old result no
longer counts.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.util.docutils import SphinxDirective

from .accelerator_runs import accelerator_reports
from .machines import machine_text
from .mode import shows_outputs
from .page import loaded_snippets, put_in_header, records_folder, site_plan
from .run.plan import snippet_digest
from .run.platforms import PLATFORMS
from .run.platforms import device_name as platform_device_name
from .run.platforms import machine_parts
from .translations import _, format_nodes, separator

STATUS_DOC = "reference/backends"
LINE_CLASS = "kb-backend-run"
TABLE_CLASS = "kb-backends-table"
# What each status is called, in the order a tally names them ("ok" is the count that ran).
STATUS = {
    "ok": _("ok"),
    "emulated": _("ran on emulated CPU devices"),
    "failed": _("failed"),
    "timed out": _("timed out"),
    "fell back to the CPU": _("fell back to the CPU"),
    "versions differ": _("versions differ"),
    "not installed here": _("not installed here"),
    "changed since the run": _("changed since the run"),
    "not run there": _("not run there"),
}
# The accelerator backends the status page names, with or without a report (kb.run.platforms).
ACCELERATORS = {name: row.label for name, row in PLATFORMS.items() if name != "cpu"}
REPRODUCE = "python3 tools/machine/report.py"


def snippet_status(report: dict[str, Any], snippet: str, sha256: str) -> tuple[str, dict[str, Any] | None]:
    """(status, the report's row) of one program as it is now.

    >>> rep = {"rows": {"snippets/a.py": {"sha256": "ab", "outcome": "ok"},
    ...                 "snippets/b.py": {"sha256": "cd", "outcome": "versions differ"}}}
    >>> [snippet_status(rep, name, sha)[0] for name, sha in
    ...  [("snippets/a.py", "ab"), ("snippets/a.py", "edited"), ("snippets/b.py", "cd"), ("snippets/c.py", "x")]]
    ['ok', 'changed since the run', 'versions differ', 'not run there']
    >>> snippet_status({"rows": {"s.py": {"sha256": "ab", "outcome": "crashed"}}}, "s.py", "ab")[0]  # unknown: not a pass
    'failed'
    """
    row = report["rows"].get(snippet)
    if row is None:
        return "not run there", None
    if row.get("sha256") != sha256:
        return "changed since the run", row
    outcome = row.get("outcome")
    return (outcome if outcome in STATUS else "failed"), row


def page_counts(report: dict[str, Any], snippets: dict[str, str]) -> dict[str, int]:
    """How many of a page's programs (name -> sha256 now) have each status, in ``STATUS`` order.

    >>> rep = {"rows": {"a": {"sha256": "1", "outcome": "ok"}, "b": {"sha256": "2", "outcome": "failed"},
    ...                 "c": {"sha256": "old", "outcome": "ok"}}}
    >>> page_counts(rep, {"a": "1", "b": "2", "c": "3", "d": "4"})
    {'ok': 1, 'failed': 1, 'changed since the run': 1, 'not run there': 1}
    """
    found = Counter(snippet_status(report, name, sha)[0] for name, sha in snippets.items())
    return {status: found[status] for status in STATUS if found[status]}


def result_text(counts: dict[str, int]) -> str:
    """"12 of 14 programs ran; 1 failed, 1 changed since the run", in the build's language.

    >>> result_text({"ok": 14})
    '14 of 14 programs ran'
    >>> result_text({"ok": 12, "versions differ": 1, "changed since the run": 1})
    '12 of 14 programs ran; 1 versions differ, 1 changed since the run'
    >>> result_text({"ok": 12, "emulated": 5})
    '17 of 17 programs ran; 5 ran on emulated CPU devices'
    >>> result_text({"failed": 1, "versions differ": 3})
    '0 of 4 programs ran; 1 failed, 3 versions differ'

    None and all have templates of their own, the same words in English: Chinese says 均未 and 全部
    there (4 个程序均未运行通过), not "0 of 4" (review 2026-12c, C2).
    """
    ran, total = counts.get("ok", 0) + counts.get("emulated", 0), sum(counts.values())
    template = (_("0 of {total} programs ran") if ran == 0 else _("{total} of {total} programs ran") if ran == total
                else _("{ran} of {total} programs ran"))
    ran = str(template).format(ran=ran, total=total)
    others = [str(_("{count} {status}")).format(count=count, status=STATUS[status])
              for status, count in counts.items() if status != "ok"]
    if not others:
        return ran
    return str(_("{result}; {details}")).format(result=ran, details=separator(_("{status}, {next_status}")).join(others))


def device_name(report: dict[str, Any]) -> str:
    """The accelerator a report's programs ran on, by the name a reader knows it by.

    >>> device_name({"rows": {"a": {"backend": "tpu", "device": "TPU v5 lite"}, "b": {"backend": "cpu", "device": "cpu"}},
    ...              "machine": "Linux x86_64, 13 CPU cores, TPU v5 lite"})
    'TPU v5e'
    >>> device_name({"rows": {}, "machine": "Linux x86_64, 16 CPU cores, NVIDIA H200"})  # rows that name no device
    'NVIDIA H200'
    """
    kinds = Counter(row.get("device") for row in report["rows"].values()
                    if row.get("backend") not in (None, "cpu") and row.get("device"))
    named = machine_parts(report.get("machine", "?")).devices
    kind = kinds.most_common(1)[0][0] if kinds else named[-1] if named else "?"
    return platform_device_name(kind)


def jax_version(report: dict[str, Any]) -> str:
    """The jax a report's pass used (its ``installed``, else what its programs imported)."""
    if report.get("installed", {}).get("jax"):
        return report["installed"]["jax"]
    found = Counter(row.get("packages", {}).get("jax") for row in report["rows"].values())
    found.pop(None, None)
    return found.most_common(1)[0][0] if found else "?"


def report_title(report: dict[str, Any]) -> str:
    """"TPU v5e, jax 0.10.2, 2026-12-05": which run a line or a column speaks of.

    >>> report_title({"rows": {}, "machine": "Linux, 1 CPU cores, TPU v5 lite", "date": "2026-12-05T14:03:00+00:00",
    ...               "installed": {"jax": "0.10.2"}})
    'TPU v5e, jax 0.10.2, 2026-12-05'
    """
    return str(_("{device}, jax {jax}, {date}")).format(device=device_name(report), jax=jax_version(report),
                                                        date=report.get("date", "?")[:10])


def where(row: dict[str, Any] | None, snippet: str) -> str:
    """``section/name.py:66``: the program (from ``snippets/``) and the line its error points at.

    >>> where({"error_line": 66}, "snippets/start/pt_agreement.py"), where(None, "snippets/core/a.py")
    ('start/pt_agreement.py:66', 'core/a.py')
    """
    name = snippet.removeprefix("snippets/")
    line = (row or {}).get("error_line")
    return f"{name}:{line}" if line else name


def row_label(docname: str) -> str:
    """The label of a page's row on the status page (what its header line links to).

    >>> row_label("core/jit")
    'kb-backends-core/jit'
    """
    return nodes.fully_normalize_name(f"kb-backends-{docname}")


def current_snippets(root: Path, names: list[str]) -> dict[str, str]:
    """name -> sha256 of the bytes now, for the programs that exist."""
    return {name: snippet_digest(root / name) for name in names if (root / name).is_file()}


def xref(target: str, content: nodes.Node, docname: str) -> addnodes.pending_xref:
    ref = addnodes.pending_xref("", refdomain="std", reftype="ref", reftarget=target, refexplicit=True,
                                refwarn=True, refdoc=docname)
    ref += content
    return ref


# --------------------------------------------------------------------------------------------
# 3: the header line
# --------------------------------------------------------------------------------------------


def add_backend_lines(app, doctree: nodes.document) -> None:
    if not shows_outputs(app.config):
        return
    reports = accelerator_reports(app)
    if not reports:  # no report: nothing to say, and no program to hash
        return
    snippets = current_snippets(Path(app.srcdir).parent, loaded_snippets(doctree))
    if not snippets:
        return
    docname = app.env.docname
    linked = STATUS_DOC in app.env.found_docs
    lines = []
    for report in reports:
        para = nodes.paragraph(classes=[LINE_CLASS])
        result = nodes.inline(text=result_text(page_counts(report, snippets)))
        para.extend(format_nodes(_("{title}: {result}"), title=nodes.strong(text=report_title(report)),
                                 result=xref(row_label(docname), result, docname) if linked else result))
        lines.append(para)
    put_in_header(doctree, "accelerators", *lines)


# --------------------------------------------------------------------------------------------
# 4: the status page
# --------------------------------------------------------------------------------------------


class BackendsTable(SphinxDirective):
    """``{kb-backends-table}``: the backends, then every page against every backend."""

    def run(self) -> list[nodes.Node]:
        from .provenance import describe_devices, summarise
        from .run.store import current_record_path, problem, read_record

        srcdir = Path(self.env.srcdir)
        root = srcdir.parent
        records_dir = records_folder(srcdir, self.config)
        reports = accelerator_reports(self.env)
        by_page: dict[str, dict[str, str]] = {}
        built: dict[str, dict[str, Any] | None] = {}
        for docname, names in sorted(site_plan(srcdir, self.config).pages.items()):
            self.env.note_dependency(self.env.doc2path(docname))  # read again when a page or a program changes
            for name in names:
                self.env.note_dependency(root / name)
            if not names:
                continue
            by_page[docname] = current_snippets(root, names)
            for name in by_page[docname]:
                if name not in built:
                    where_ = current_record_path(records_dir, root, name)
                    self.env.note_dependency(where_)
                    record = read_record(where_)
                    built[name] = record if record is not None and problem(record) is None else None
        every = {name: sha for snippets in by_page.values() for name, sha in snippets.items()}

        backends = nodes.bullet_list(classes=["kb-backends"])
        ran_with = [r["ran_with"] for r in built.values() if r and r.get("ran_with", {}).get("python")]
        item = nodes.paragraph()
        item += nodes.strong(text=str(_("This build")))
        item += nodes.Text(str(_(" ({devices}, {date}): {ran} of {total} programs ran, {shared} of them one after "
                                 "another in processes shared with other programs, the others each in a fresh "
                                 "process; every page shows what they printed.")).format(
            devices=describe_devices(summarise(ran_with)) if ran_with else "?",
            date=summarise(ran_with)["date"] if ran_with else "?",
            ran=sum(1 for r in built.values() if r), total=len(built),
            shared=sum(1 for r in built.values() if r and r.get("how") == "batch")))
        backends += nodes.list_item("", item)
        for report in reports:
            backends += self._report_item(report, every)
        reported = {b for report in reports for b in report.get("backends", [])}
        for backend, name in ACCELERATORS.items():
            if backend not in reported:
                backends += nodes.list_item("", nodes.paragraph(text=str(_("{backend}: none yet.")).format(backend=name)))

        table = nodes.table(classes=[TABLE_CLASS])
        group = nodes.tgroup(cols=2 + len(reports))
        table += group
        for width in [25, 15] + [60 // max(1, len(reports))] * len(reports):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        group += head
        head += self._row([nodes.paragraph(text=str(_("Pages"))), nodes.paragraph(text=str(_("This build")))]
                          + [nodes.paragraph(text=report_title(report)) for report in reports])
        body = nodes.tbody()
        group += body
        for docname, snippets in by_page.items():
            page = nodes.paragraph()
            page += nodes.target("", "", ids=[nodes.make_id(row_label(docname))], names=[row_label(docname)])
            self.state.document.note_explicit_target(page[-1])
            page += addnodes.pending_xref("", nodes.literal(text=docname), refdomain="std", reftype="doc",
                                          reftarget=f"/{docname}", refexplicit=True, refwarn=True,
                                          refdoc=self.env.docname)
            here = Counter("ok" if built.get(name) else "failed" for name in snippets)
            cells: list[nodes.Node] = [page, nodes.paragraph(text=result_text({s: here[s] for s in STATUS if here[s]}))]
            for report in reports:
                cells.append(self._report_cell(report, snippets, docname))
            body += self._row(cells)
        return [backends, table]

    def _report_item(self, report: dict[str, Any], every: dict[str, str]) -> nodes.list_item:
        item = nodes.list_item()
        para = nodes.paragraph()
        para += nodes.strong(text=report_title(report))
        para += nodes.Text(str(_(" ({machine}, Python {python}): {result}.")).format(
            machine=machine_text(report.get("machine", "?")), python=report.get("python", "?"),
            result=result_text(page_counts(report, every))))
        differs = report.get("differs_from_pins", {})
        if differs:
            versions = separator(_("{package}, {next_package}")).join(
                str(_("{package} {here} (pinned {pinned})")).format(package=name, here=v.get("here", "?"),
                                                                    pinned=v.get("pinned", "?"))
                for name, v in differs.items())
            para += nodes.Text(str(_(" Versions that differ from the pins: {versions}.")).format(versions=versions))
        how = report.get("pass") or {}
        if how.get("wall_seconds"):
            para.extend(format_nodes(_(" The pass took {minutes} min of the machine in {calls} calls: {command}."),
                                     minutes=f"{how['wall_seconds'] / 60:.1f}", calls=str(how.get("calls", 1)),
                                     command=nodes.literal(text=how.get("command") or REPRODUCE)))
        item += para
        noise = report.get("noise") or {}
        if noise:
            from .run.noise import BY_ID

            found = nodes.bullet_list()
            for noise_id, recorded in noise.items():
                count = sum(1 for row in report["rows"].values() if noise_id in (row.get("noise") or []))
                known = BY_ID.get(noise_id)
                # The table's reason, translated (kb.translations lists it with the _() strings).
                reason = _(known.reason) if known else (recorded or {}).get("reason", "")
                line = nodes.paragraph(classes=["kb-noise"])
                line.extend(format_nodes(
                    _("Platform noise recorded in {count} programs, not counted as a failure: {noise}. {reason}"),
                    count=str(count), noise=nodes.literal(text=noise_id), reason=str(reason)))
                found += nodes.list_item("", line)
            item += found
        return item

    @staticmethod
    def _report_cell(report: dict[str, Any], snippets: dict[str, str], docname: str) -> nodes.Node:
        cell = nodes.container()
        cell += nodes.paragraph(text=result_text(page_counts(report, snippets)))
        for name, sha in snippets.items():
            status, row = snippet_status(report, name, sha)
            if status == "ok":
                continue
            para = nodes.paragraph(classes=["kb-backend-problem"])
            para += nodes.Text(str(_("{status}: ")).format(status=STATUS[status]))
            ran = None if status == "changed since the run" else row  # its error was another program's
            para += nodes.literal(text=where(ran, name))
            if ran and ran.get("error"):
                para += nodes.Text(" ")
                para += nodes.literal(text=ran["error"])
            cell += para
        notebook = next((row for row in report.get("notebooks", []) if row.get("page") == docname), None)
        if notebook:
            cell += notebook_line(notebook, snippets)
        return cell

    @staticmethod
    def _row(cells: list[nodes.Node]) -> nodes.row:
        row = nodes.row()
        for content in cells:
            entry = nodes.entry()
            entry += content
            row += entry
        return row


def notebook_line(row: dict[str, Any], snippets: dict[str, str]) -> nodes.paragraph:
    """How a page's notebook fared in one kernel (a report's ``notebooks`` row), in the build's
    language; "changed since the run" unless its programs are the page's programs as they are now.

    >>> row = {"programs": {"a.py": "1"}, "outcome": "failed", "error": "ValueError: x", "seconds": 3.0}
    >>> notebook_line(row, {"a.py": "1"}).astext(), notebook_line(row, {"a.py": "2"}).astext()
    ('Notebook, in one kernel: failed: ValueError: x', 'Notebook, in one kernel: changed since the run')
    """
    para = nodes.paragraph(classes=["kb-backend-notebook"])
    para += nodes.strong(text=str(_("Notebook, in one kernel: ")))
    if row.get("programs") != snippets:
        para += nodes.Text(str(STATUS["changed since the run"]))
    elif row.get("outcome") in ("ok", "differs"):
        para += nodes.Text(str(_("ran top to bottom in {seconds} s")).format(seconds=f"{row['seconds']:.0f}"))
        if row.get("differs"):
            para += nodes.Text(str(_("; {count} programs printed otherwise than when they ran alone: ")).format(count=len(row["differs"])))
            for number, name in enumerate(row["differs"]):
                if number:
                    para += nodes.Text(separator(_("{program}, {next_program}")))
                para += nodes.literal(text=where(None, name))
    else:
        para += nodes.Text(str(_("{status}: ")).format(status=STATUS.get(row.get("outcome"), STATUS["failed"])))
        para += nodes.literal(text=row.get("error") or "")
    return para


def pages_added_or_removed(app, env, added, changed, removed) -> list[str]:
    """``env-get-outdated``: the status page again when a page comes or goes, so that its table has
    a row (the target of the new page's header line) for every page. Its notes of dependency name
    the pages that exist; a new one is not among them.

    >>> from types import SimpleNamespace as NS
    >>> env = NS(found_docs={"a", "b", STATUS_DOC})
    >>> pages_added_or_removed(None, env, {"b"}, set(), set()), pages_added_or_removed(None, env, set(), {"a"}, set())
    (['reference/backends'], [])
    """
    if (added or removed) and STATUS_DOC in env.found_docs and STATUS_DOC not in added:
        return [STATUS_DOC]
    return []


def setup(app):
    app.add_directive("kb-backends-table", BackendsTable)
    app.connect("env-get-outdated", pages_added_or_removed)
    app.connect("doctree-read", add_backend_lines)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
