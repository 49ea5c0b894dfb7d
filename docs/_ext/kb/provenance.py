"""kb.provenance: every executed page says once, near its top, what its programs ran with.

1. Each snippet's record (``kb.run.store``) notes what that program ran with: Python, the versions
   of jax, jaxlib, flax, optax and torch it imported, the devices of the JAX backend it started,
   the machine and its cores, the date, its seconds, and whether it ran alone (a timing snippet).
2. When a page is read, the records of its cells (``load`` in each cell's metadata, the snippet
   named from the repository root) are summed up in one line in the page's header box
   (``kb.page.put_in_header``), worded in the build's language (``kb.translations``): the
   packages, the devices (``CPU ×1, ×8`` when some programs emulate eight devices), how many
   programs ran and how (each as its own program, most of them one after another in a process shared
   with other programs, ``kb.run.schedule``), how long they took, the date of the newest run and, on
   a page with timing snippets, that those ran with nothing else running.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docutils import nodes

from .machines import machine_text
from .mode import shows_outputs
from .page import loaded_snippets, put_in_header, records_folder
from .run.child import PACKAGES  # the packages each run records (kb/run/child.py), in the order the box names them
from .run.platforms import device_name
from .run.store import current_record_path, read_record
from .translations import _, separator


def summarise(ran_with: list[dict[str, Any]]) -> dict[str, Any]:
    """What a page's programs ran with, from their records' ``ran_with``, in one dict.

    >>> one = {"python": "3.12.1", "packages": {"jax": "0.12.0.1"}, "devices": [{"backend": "cpu", "count": 1,
    ...        "kind": "cpu"}], "machine": "Linux x86_64", "cpu_count": 2, "date": "2026-12-01"}
    >>> two = one | {"packages": {"jax": "0.12.0.1", "torch": "2.13.0"}, "devices": [{"backend": "cpu",
    ...        "count": 8, "kind": "cpu"}], "date": "2026-11-30"}
    >>> s = summarise([one, two]); s["packages"], s["devices"], s["date"]
    ({'jax': '0.12.0.1', 'torch': '2.13.0'}, [('cpu', 'cpu', [1, 8])], '2026-12-01')
    """
    packages: dict[str, str] = {}
    devices: dict[tuple[str, str], set[int]] = {}
    for info in ran_with:
        packages.update(info.get("packages", {}))
        for device in info.get("devices", []):
            devices.setdefault((device["backend"], device["kind"]), set()).add(device["count"])
    first = ran_with[0]
    return {"python": first.get("python", "?"), "machine": first.get("machine", "?"),
            "cpu_count": first.get("cpu_count", "?"), "date": max(i.get("date", "") for i in ran_with),
            "packages": {name: packages[name] for name in PACKAGES if name in packages},
            "devices": [(backend, kind, sorted(counts)) for (backend, kind), counts in sorted(devices.items())]}


def describe_devices(summary: dict[str, Any]) -> str:
    """The devices a page's programs ran on, in the build's language.

    >>> base = {"machine": "Linux x86_64", "cpu_count": 2}
    >>> describe_devices(base | {"devices": [("cpu", "cpu", [1, 8])]})
    'CPU ×1, ×8 (emulated; Linux x86_64, 2 cores)'
    >>> describe_devices(base | {"devices": [("gpu", "NVIDIA H200", [1])], "cpu_count": 16})
    'NVIDIA H200 ×1 (Linux x86_64, 16 cores)'
    >>> describe_devices(base | {"devices": [("tpu", "TPU v5 lite", [1])], "cpu_count": 13})
    'TPU v5e ×1 (Linux x86_64, 13 cores)'
    >>> describe_devices(base | {"devices": []})
    'Linux x86_64, 2 cores'

    The machine is worded from its parts (``kb.machines``), a device by the name pages use for it.
    """
    where = {"machine": machine_text(summary["machine"]), "cores": summary["cpu_count"]}
    between = separator(_("{count}, {next_count}"))
    parts = []
    for backend, kind, counts in summary["devices"]:
        count = between.join(f"×{c}" for c in counts)
        kind = device_name(kind)
        if backend == "cpu":
            emulated = str(_("emulated; ")) if max(counts) > 1 else ""
            parts.append(str(_("CPU {counts} ({emulated}{machine}, {cores} cores)")).format(
                counts=count, emulated=emulated, **where))
        else:
            parts.append(str(_("{kind} {counts} ({machine}, {cores} cores)")).format(kind=kind, counts=count, **where))
    return separator(_("{devices}, {next_devices}")).join(parts) or str(_("{machine}, {cores} cores")).format(**where)


def provenance_paragraph(summary: dict[str, Any], seconds: float, programs: int, alone: int,
                         shared: int = 0) -> nodes.paragraph:
    """The provenance line, in the build's language.

    >>> s = {"python": "3.12.1", "packages": {"jax": "0.12.0.1", "flax": "0.12.12"}, "date": "2026-11-29",
    ...      "devices": [("cpu", "cpu", [8])], "machine": "Linux x86_64", "cpu_count": 2}
    >>> provenance_paragraph(s, 3.25, 2, 1, shared=2).astext()  # doctest: +NORMALIZE_WHITESPACE
    'Executed at build time with Python 3.12.1, jax 0.12.0.1, flax 0.12.12, on CPU ×8 (emulated;
     Linux x86_64, 2 cores); its 2 programs ran, 2 of them in processes shared with other programs,
     3.2 s in all, and those that print timings ran with nothing else running; built 2026-11-29.'
    >>> provenance_paragraph(s | {"packages": {}, "devices": []}, 1.0, 1, 0).astext()  # doctest: +NORMALIZE_WHITESPACE
    'Executed at build time with Python 3.12.1, on Linux x86_64, 2 cores; its 1 programs ran, 0 of them
     in processes shared with other programs, 1.0 s in all; built 2026-11-29.'
    """
    between = separator(_("{package}, {next_package}"))
    packages = between.join(f"{name} {version}" for name, version in summary["packages"].items())
    took = str(_("; its {programs} programs ran, {shared} of them in processes shared with other programs, "
                 "{seconds:.1f} s in all")).format(programs=programs, shared=shared, seconds=seconds)
    if alone:
        took += str(_(", and those that print timings ran with nothing else running"))
    # A page whose programs import no package of PACKAGES in their own process (they start JAX
    # only in child processes, as xla/tflag_where.py does) names none, rather than an empty slot.
    line = (_(" with Python {python}, {packages}, on {devices}{took}; built {date}.") if packages
            else _(" with Python {python}, on {devices}{took}; built {date}."))
    body = str(line).format(python=summary["python"], packages=packages, devices=describe_devices(summary),
                            took=took, date=summary["date"])
    para = nodes.paragraph()
    para += nodes.strong(text=str(_("Executed at build time")))
    para += nodes.Text(body)
    return para


def page_records(app, doctree: nodes.document) -> list[dict[str, Any]]:
    """The records of a page's snippets, once each, in page order (cells without one left out).

    Each record file becomes a dependency of the page, so a page is read again when a record it
    showed is replaced (a snippet that failed and then ran again, records imported from shards)
    or was missing (``nox -s page``), not only when its snippet changes."""
    folder = records_folder(app.srcdir, app.config)
    root = Path(app.srcdir).parent
    found = []
    for name in loaded_snippets(doctree):
        path = root / name
        if not path.is_file():
            continue
        where = current_record_path(folder, root, name)
        app.env.note_dependency(where)
        record = read_record(where)
        if record is not None:
            found.append(record)
    return found


def add_provenance(app, doctree: nodes.document) -> None:
    if not shows_outputs(app.config):
        return
    records = page_records(app, doctree)
    if not records:
        return
    summary = summarise([r["ran_with"] for r in records if r.get("ran_with", {}).get("python")] or [{}])
    seconds = sum(r["seconds"] for r in records)
    put_in_header(doctree, "ran-with", provenance_paragraph(summary, seconds, len(records), sum(r["alone"] for r in records),
                                                            sum(r.get("how") == "batch" for r in records)))


def setup(app):
    app.connect("doctree-read", add_provenance)
    return {"version": "2.0", "parallel_read_safe": True, "parallel_write_safe": True}
