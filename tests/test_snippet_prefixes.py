"""The way back from a snippet to its page: the file name's prefix (architecture review F20).

A page's programs live in its section's folder and share one prefix (`snippets/gpt/gen_mask.py`:
section `gpt`, prefix `gen`), and no other page uses that prefix, so an author who opens a
snippet knows its page without grep. Held here for every page the build would render.
"""

from __future__ import annotations

from tools.site import ROOT

from kb.run.plan import site_plan


def prefix_problems(loads: dict[str, list[str]]) -> list[str]:
    """What breaks the rule, one line each.

    >>> prefix_problems({"gpt/generate": ["snippets/gpt/gen_a.py", "snippets/gpt/gen_b.py"],
    ...                  "gpt/port": ["snippets/gpt/port_a.py"]})
    []
    >>> prefix_problems({"gpt/generate": ["snippets/gpt/gen_a.py", "snippets/core/gen_b.py", "snippets/gpt/x_c.py"],
    ...                  "gpt/port": ["snippets/gpt/gen_d.py"]})  # doctest: +NORMALIZE_WHITESPACE
    ['gpt/generate: snippets/core/gen_b.py is not in snippets/gpt/',
     'gpt/generate: 2 prefixes (gen, x); a page uses one',
     'gpt/gen: used by 2 pages (gpt/generate, gpt/port); a prefix belongs to one page']
    """
    problems, owners = [], {}
    for page, names in sorted(loads.items()):
        section = page.split("/")[0]
        prefixes = set()
        for name in names:
            folder, file = name.removeprefix("snippets/").rsplit("/", 1)
            if folder != section:
                problems.append(f"{page}: {name} is not in snippets/{section}/")
            prefixes.add(file.split("_")[0])
            owners.setdefault(f"{section}/{file.split('_')[0]}", set()).add(page)
        if len(prefixes) > 1:
            problems.append(f"{page}: {len(prefixes)} prefixes ({', '.join(sorted(prefixes))}); a page uses one")
    problems += [f"{key}: used by {len(pages)} pages ({', '.join(sorted(pages))}); a prefix belongs to one page"
                 for key, pages in sorted(owners.items()) if len(pages) > 1]
    return problems


def test_each_page_has_one_prefix_of_its_own_in_its_section_folder():
    loads = site_plan(ROOT / "docs").pages
    assert sum(map(len, loads.values())) > 500  # the real site, not an empty discovery
    assert prefix_problems(loads) == []
