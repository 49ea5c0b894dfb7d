"""Every English string has a translation: none missing, none fuzzy, none stale, and none whose
MyST markup (roles, code, link targets) differs from the English. That holds for the pages'
catalogues and for the interface catalogue of our extensions (kb.po)."""

from __future__ import annotations

import subprocess

import polib
import pytest

from tools.catalogs import catalog_report, catalogs, missing_interface_messages, where
from tools.site import DOCS, LOCALES, ROOT, TRANSLATIONS, sphinx_command

CATALOGS = [po for language in TRANSLATIONS for po in catalogs(language)]


def test_catalogues_exist():
    assert CATALOGS, f"no catalogues under {LOCALES}; run `nox -s i18n`"
    assert any(po.name == "kb.po" for po in CATALOGS), "the interface catalogue kb.po is not listed"


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_catalogue_is_complete(po):
    report = catalog_report(po)
    problems = [f"untranslated: {where(e)}: {e.msgid[:80]!r}" for e in report.untranslated]
    problems += [f"fuzzy: {where(e)}: {e.msgid[:80]!r}" for e in report.fuzzy]
    problems += [f"markup: {where(e)}: {'; '.join(p)}: {e.msgstr[:80]!r}" for e, p in report.broken]
    assert not problems, f"{po.relative_to(ROOT)}:\n" + "\n".join(problems)


def current_messages(docs, out) -> dict[str, set[str]]:
    """Extract the English messages of the current sources and of their figures (the gettext
    builder, reading outputs from the site's execution cache: nox -s tests builds the site first)."""
    result = subprocess.run(sphinx_command(docs, out / "pot", doctrees=out / "doctrees", builder="gettext"),
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return {
        str(pot.relative_to(out / "pot").with_suffix("")): {e.msgid for e in polib.pofile(str(pot)) if e.msgid}
        for pot in (out / "pot").rglob("*.pot")
    }


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_catalogues_are_up_to_date(tmp_path, language):
    """A string added to or changed in an English page must reach the catalogue (`nox -s i18n`)."""
    messages = current_messages(DOCS, tmp_path)
    assert messages, "the gettext build extracted nothing"
    problems = []
    for doc, msgids in sorted(messages.items()):
        po = LOCALES / language / "LC_MESSAGES" / f"{doc}.po"
        if not po.exists():
            problems.append(f"{po.relative_to(ROOT)} is missing")
            continue
        translated = {e.msgid for e in polib.pofile(str(po)) if e.msgstr and not e.obsolete and "fuzzy" not in e.flags}
        for msgid in sorted(msgids - translated):
            problems.append(f"docs/{doc}.md: not in the catalogue (run `nox -s i18n`, then translate): {msgid[:80]!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_interface_catalogue_has_every_string_the_code_asks_for(language):
    missing = missing_interface_messages(language)
    assert not missing, f"kb.po ({language}) lacks these strings (run `nox -s i18n`, then translate): {missing}"
