"""Every snippet runs on the reader's hardware (kb.backends): no platform pin without its reason,
one pattern for programs that need several devices, and a build that knows which backend it used."""

from __future__ import annotations

import functools
import re

import pytest

from tools.site import DOCS, SNIPPETS

from kb.backends import MARKER, pins  # noqa: E402 (tools.site: docs/_ext importable)

SNIPPET_FILES = sorted(SNIPPETS.rglob("*.py"))
# The multi-device pattern (CONTRIBUTING.md, DETAILS.md): accelerators when there are enough, else emulated CPU devices.
PATTERN = re.compile(r"devices = jax\.devices\(\)\[:(\d+)\] if jax\.device_count\(\) >= \1 else jax\.devices\(\"cpu\"\)\[:\1\]")


def _id(path):
    return str(path.relative_to(SNIPPETS))


def test_no_snippet_pins_a_platform_without_its_reason():
    """A copied program runs on the reader's GPU or TPU: it pins the CPU only where the CPU is its
    subject, and that line says why (``# CPU by design: <reason>``). Every offender is listed."""
    bad = [f"{path.relative_to(SNIPPETS.parent)}:{n}: {line}"
           for path in SNIPPET_FILES for n, line, reason in pins(path.read_text()) if not reason]
    assert not bad, (f"{len(bad)} lines pin a platform without a reason; remove the pin, or end the line with "
                     f"'{MARKER} <why the CPU is this program's subject>':\n" + "\n".join(bad))


@functools.cache
def _site_pages() -> dict:
    from tools.shards import site_jobs  # the build's own answer to "which pages load this snippet"

    return site_jobs(DOCS)[0]


def _pages_loading(name: str) -> list:
    pages = _site_pages()
    return [DOCS / f"{page}.md" for page, names in pages.items() if f"snippets/{name}" in names]


@pytest.mark.parametrize("path", [p for p in SNIPPET_FILES if any(r for _, _, r in pins(p.read_text()))], ids=_id)
def test_a_cpu_by_design_program_is_named_so_on_its_page(path):
    """The reader of the page learns that this program runs on CPU devices on purpose."""
    pages = _pages_loading(_id(path))
    assert pages, f"no page loads {path}"
    for page in pages:
        assert "CPU" in page.read_text(encoding="utf-8"), f"{page} loads {path}, which pins the CPU, and never says CPU"


MULTI_DEVICE = [p for p in SNIPPET_FILES if "JAX_NUM_CPU_DEVICES" in p.read_text()
                and not any(r for _, _, r in pins(p.read_text()))]


@pytest.mark.parametrize("path", MULTI_DEVICE, ids=_id)
def test_a_multi_device_program_uses_the_one_pattern(path):
    """It asks for emulated CPU devices, then takes the accelerators if there are enough of them
    and the CPU devices otherwise, and prints which it used."""
    text = path.read_text()
    match = PATTERN.search(text)
    assert match, f"{path}: pick the devices with the project's pattern (CONTRIBUTING.md, 'Devices and backends')"
    assert re.search(r"print\(.*devices\[0\]\.platform", text), f"{path}: print which devices it used"
    assert "jax.make_mesh(" not in text or all("devices=" in call for call in re.findall(r"jax\.make_mesh\([^\n]*", text)), (
        f"{path}: every jax.make_mesh call names its devices (devices=devices)")


def test_the_pin_finder_sees_each_way_of_pinning(tmp_path):
    """The finder the tests rely on: setdefault, item assignment, update(...), config.update."""
    source = ('os.environ.setdefault("JAX_PLATFORMS", "cpu")\nenv["JAX_PLATFORMS"] = "cpu"\n'
              'env.update(JAX_PLATFORMS="cpu")\njax.config.update("jax_platforms", "cpu")\n')
    assert [n for n, _, _ in pins(source)] == [1, 2, 3, 4]
