"""BENCHMARKS.md holds every block that ``nox -s bench`` and ``nox -s bench-site`` write
(``tools.benchmarks``), and writing a block replaces only what lies between its markers."""

from __future__ import annotations

import pytest

from tools.benchmarks import BENCHMARKS, BLOCKS, block, markers, replace_block, write_block


@pytest.mark.parametrize("name", BLOCKS)
def test_benchmarks_md_has_each_generated_block_with_a_table(name):
    text = BENCHMARKS.read_text(encoding="utf-8")
    start, end = markers(name)
    assert text.count(start) == 1 and text.count(end) == 1, f"BENCHMARKS.md needs one {start} and one {end}"
    assert "\n|---" in block(text, name), f"BENCHMARKS.md's {name} block holds no Markdown table"


@pytest.mark.parametrize("name", BLOCKS)
def test_writing_a_block_keeps_the_rest_of_the_file(name, tmp_path):
    copy = tmp_path / "BENCHMARKS.md"
    text = BENCHMARKS.read_text(encoding="utf-8")
    copy.write_text(text, encoding="utf-8")
    write_block(name, "measured today:\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", path=copy)
    written = copy.read_text(encoding="utf-8")
    assert block(written, name) == "measured today:\n\n| a | b |\n|---|---|\n| 1 | 2 |"
    start, end = markers(name)
    before, after = text.split(start)[0], text.split(end)[1]
    assert written.startswith(before + start + "\n") and written.endswith("\n" + end + after)
    for other in BLOCKS:
        if other != name:
            assert block(written, other) == block(text, other)
    # Writing the old block back gives the file back, byte for byte.
    write_block(name, block(text, name), path=copy)
    assert copy.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("broken", [
    "# B\n\n| a |\n|---|\n",                                               # no markers
    "<!-- t:start -->\n| a |\n",                                          # no end
    "<!-- t:end -->\n| a |\n<!-- t:start -->\n",                          # the wrong order
    "<!-- t:start -->\n<!-- t:end -->\n<!-- t:start -->\n<!-- t:end -->\n",  # twice
])
def test_a_missing_or_misplaced_marker_is_an_error(broken):
    with pytest.raises(ValueError, match="t:"):
        replace_block(broken, "t", "| new |")
