"""Print, per catalogue, how many strings are translated, fuzzy and untranslated (nox -s i18n).

Run as ``python -m tools.i18n_report``. With --normalize (as `nox -s i18n` runs it) it first tidies
each page catalogue (no fuzzy header, no obsolete entries, repository-relative locations) and
brings the interface catalogue (kb.po) in line with the extension's code. Without it, it only
reads.
"""

from __future__ import annotations

import sys

from .catalogs import catalog_report, catalogs, normalize_catalogue, update_interface_catalogue, where
from .site import ROOT, TRANSLATIONS


def main(normalize: bool) -> int:
    rows, todo = [], 0
    for language in TRANSLATIONS:
        if normalize:
            update_interface_catalogue(language)
        for po in catalogs(language):
            if normalize:
                normalize_catalogue(po)
            r = catalog_report(po)
            rows.append((str(po.relative_to(ROOT)), r.translated, len(r.fuzzy), len(r.untranslated), len(r.broken), r.total))
            todo += len(r.fuzzy) + len(r.untranslated) + len(r.broken)
            for entry in r.fuzzy + r.untranslated:
                print(f"  to do: {where(entry)}: {entry.msgid[:70]!r}")
            for entry, problems in r.broken:
                print(f"  markup: {where(entry)}: {'; '.join(problems)}")
    width = max([len(r[0]) for r in rows] + [9])
    print(f"{'catalogue':<{width}}  translated  fuzzy  untranslated  broken  total")
    for name, ok, fuzzy, untranslated, broken, total in rows:
        print(f"{name:<{width}}  {ok:>10}  {fuzzy:>5}  {untranslated:>12}  {broken:>6}  {total:>5}")
    print(f"{len(rows)} catalogues; {todo} strings still to translate or fix")
    return 0


if __name__ == "__main__":
    sys.exit(main(normalize="--normalize" in sys.argv[1:]))
