"""kb.glossary: the one reader of the project's glossary (``docs/_data/glossary.tsv``).

``glossary_path()`` is the file, ``glossary_rows()`` its rows (``tools.glossary`` checks them,
``kb.search`` and ``kb.search_zh`` take their words from them); ``alternatives()`` splits a field's
`` / ``.
"""

from __future__ import annotations

from pathlib import Path


def glossary_path(root: Path) -> Path:
    """The project's glossary, docs/_data/glossary.tsv: the one source of its Chinese terms."""
    return root / "docs" / "_data" / "glossary.tsv"


def glossary_rows(tsv: Path) -> list[dict[str, str]]:
    """The glossary's rows, each a dict of its columns (a missing or empty field is ``""``).

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "g.tsv"
    >>> _ = path.write_text("english\\tchinese\\tsearch\\ndevice\\t设备\\t多卡 / card\\nleaf\\t叶子\\n", encoding="utf-8")
    >>> [(row["english"], row["search"]) for row in glossary_rows(path)]
    [('device', '多卡 / card'), ('leaf', '')]
    """
    import csv

    with tsv.open(encoding="utf-8", newline="") as handle:
        return [{key: value or "" for key, value in row.items()} for row in csv.DictReader(handle, delimiter="\t")]


def alternatives(field: str) -> list[str]:
    """The parts of a glossary field separated by `` / `` (several terms, or several search words).

    >>> alternatives("显存 / VRAM "), alternatives("")
    (['显存', 'VRAM'], [])
    """
    return [part.strip() for part in field.split(" / ") if part.strip()]
