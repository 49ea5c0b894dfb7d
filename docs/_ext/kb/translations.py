"""kb.translations: our own interface strings, translated like every other string of the site.

1. Every string the kb modules show a reader (the header box, the downloads line, the 404
   page) is written in English in the code as ``_("...")`` (``_`` is Sphinx's
   ``get_translation("kb")``) and translated in the gettext catalogue
   ``kb/locales/<language>/LC_MESSAGES/kb.po``, beside this file.
2. The catalogue is compiled to ``kb.mo`` when the extension is set up, if the ``.po`` is newer
   (written to a temporary file and renamed, so parallel builds never read half a file), and
   registered with ``app.add_message_catalog``; ``_`` then answers in the build's language.
3. ``interface_messages()`` lists the strings the code asks for, so the tests can require each of
   them in every catalogue, and ``nox -s i18n`` can add the new ones; the reasons of the platform
   messages in ``kb.run.noise.TABLE`` are among them (``kb.accelerator_status`` shows them).

Sphinx has no ready way for an extension to ship a catalogue from ``.po`` sources (it compiles only
the project's ``locale_dirs``, and only after extensions are set up), hence this module.
"""

from __future__ import annotations

import ast
import os
import tempfile
from pathlib import Path

from sphinx.locale import get_translation

CATALOGUE = "kb"
LOCALE_DIR = Path(__file__).with_name("locales")
_ = get_translation(CATALOGUE)


def catalogue_path(language: str, suffix: str = ".po") -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{CATALOGUE}{suffix}"


def compile_catalogue(language: str) -> Path | None:
    """Compile ``kb.po`` of ``language`` to ``kb.mo`` when it is missing or older."""
    po = catalogue_path(language)
    if not po.is_file():
        return None
    mo = po.with_suffix(".mo")
    if mo.is_file() and mo.stat().st_mtime >= po.stat().st_mtime:
        return mo
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as handle:
        catalog = read_po(handle, locale=language)
    fd, tmp = tempfile.mkstemp(dir=mo.parent, suffix=".mo.tmp")
    with os.fdopen(fd, "wb") as handle:
        write_mo(handle, catalog)
    os.replace(tmp, mo)
    return mo


def interface_messages(package: Path = Path(__file__).parent) -> dict[str, list[tuple[str, int]]]:
    """Each ``_("...")`` string of the kb modules, with where it is asked for.

    >>> messages = interface_messages()
    >>> messages["Executed at build time"][0][0]
    'docs/_ext/kb/provenance.py'
    """
    found: dict[str, list[tuple[str, int]]] = {}
    root = package.parent.parent.parent
    for module in sorted(package.glob("*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"), filename=str(module))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_"
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                where = (module.relative_to(root).as_posix(), node.lineno)
                found.setdefault(node.args[0].value, []).append(where)
    found.update(noise_reasons(root))
    return dict(sorted(found.items(), key=lambda item: item[1][0]))  # in source order


def noise_reasons(root: Path) -> dict[str, list[tuple[str, int]]]:
    """The reason of each platform message in ``kb.run.noise.TABLE`` (the status page shows it,
    translated), located at its line there.

    >>> reasons = noise_reasons(Path(__file__).parents[3])
    >>> [(path, line > 0) for [(path, line)] in reasons.values()][:1]
    [('docs/_ext/kb/run/noise.py', True)]
    """
    from .run.noise import TABLE

    module = Path(__file__).with_name("run") / "noise.py"
    lines = module.read_text(encoding="utf-8").splitlines()
    found = {}
    for noise in TABLE:
        line = next((n for n, text in enumerate(lines, 1) if f'"{noise.id}"' in text), 1)
        found[noise.reason] = [(module.relative_to(root).as_posix(), line)]
    return found


def setup(app):
    compile_catalogue(app.config.language or "en")
    app.add_message_catalog(CATALOGUE, str(LOCALE_DIR))
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}


def separator(template: str) -> str:
    """The text between the two items of a translated pair template such as ``"{a}, {b}"``.

    >>> separator("{package}, {next_package}"), separator("{program}、{next_program}")
    (', ', '、')
    """
    import re

    match = re.fullmatch(r"\{\w+\}(.*)\{\w+\}", str(template), re.S)
    if not match:
        raise ValueError(f"a pair template is '{{a}}<separator>{{b}}', not {template!r}")
    return match.group(1)


def format_nodes(template: str, **parts):
    """Docutils nodes for a translated template whose ``{name}`` fields are nodes (or text).

    >>> from docutils import nodes
    >>> [n.astext() for n in format_nodes("{a}; see {b}.", a=nodes.strong("", "A"), b="B")]
    ['A', '; see ', 'B', '.']
    """
    import re

    from docutils import nodes

    result = []
    for index, piece in enumerate(re.split(r"\{(\w+)\}", str(template))):
        if index % 2:
            value = parts[piece]
            result.extend(value if isinstance(value, list) else [value if isinstance(value, nodes.Node) else nodes.Text(value)])
        elif piece:
            result.append(nodes.Text(piece))
    return result
