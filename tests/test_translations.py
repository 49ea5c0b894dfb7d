"""Every English string has a Chinese translation: none missing, none fuzzy, none stale,
and none whose MyST markup (roles, code, link targets) differs from the English."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import polib
import pytest

from kbtools import DOCS, LOCALES, ROOT, catalog_report, catalogs, where

CATALOGS = catalogs()


def test_catalogues_exist():
    assert CATALOGS, f"no zh_CN catalogues under {LOCALES}; run `nox -s i18n`"


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: str(p.relative_to(LOCALES)))
def test_catalogue_is_complete(po):
    report = catalog_report(po)
    problems = [f"untranslated: {where(e)}: {e.msgid[:80]!r}" for e in report.untranslated]
    problems += [f"fuzzy: {where(e)}: {e.msgid[:80]!r}" for e in report.fuzzy]
    problems += [f"markup: {where(e)}: {'; '.join(p)}: {e.msgstr[:80]!r}" for e, p in report.broken]
    assert not problems, f"{po.relative_to(ROOT)}:\n" + "\n".join(problems)


def current_messages(docs: Path, out: Path) -> dict[str, set[str]]:
    """Extract the English messages of the current sources (gettext builder, no execution)."""
    subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "gettext", "-c", str(ROOT), "-q", "-D", "nb_execution_mode=off",
         "-d", str(out / "doctrees"), str(docs), str(out / "pot")],
        check=True, capture_output=True, text=True,
    )
    return {
        str(pot.relative_to(out / "pot").with_suffix("")): {e.msgid for e in polib.pofile(str(pot)) if e.msgid}
        for pot in (out / "pot").rglob("*.pot")
    }


def test_catalogues_are_up_to_date(tmp_path):
    """A string added to or changed in an English page must reach the catalogue (`nox -s i18n`)."""
    messages = current_messages(DOCS, tmp_path)
    assert messages, "the gettext build extracted nothing"
    problems = []
    for doc, msgids in sorted(messages.items()):
        po = LOCALES / "zh_CN" / "LC_MESSAGES" / f"{doc}.po"
        if not po.exists():
            problems.append(f"{po.relative_to(ROOT)} is missing")
            continue
        translated = {e.msgid for e in polib.pofile(str(po)) if e.msgstr and not e.obsolete and "fuzzy" not in e.flags}
        for msgid in sorted(msgids - translated):
            problems.append(f"docs/{doc}.md: not in the catalogue (run `nox -s i18n`, then translate): {msgid[:80]!r}")
    assert not problems, "\n".join(problems)


def test_glossary_copy_matches_the_shared_glossary():
    """docs/_data/GLOSSARY.tsv serves builds without ../shared; it must not drift from it."""
    shared = ROOT.parent / "shared" / "GLOSSARY.tsv"
    if not shared.exists():
        pytest.skip("../shared/GLOSSARY.tsv is not beside this checkout (only CI and team machines have it)")
    copy = ROOT / "docs" / "_data" / "GLOSSARY.tsv"
    assert copy.read_text(encoding="utf-8") == shared.read_text(encoding="utf-8"), \
        "docs/_data/GLOSSARY.tsv differs from ../shared/GLOSSARY.tsv: copy the shared one over it"
