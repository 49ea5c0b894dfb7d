"""kb.run.schedule and kb.run.plan: one plan of the site's programs, one scheduler with the device
policy of the platform it runs on, and programs in shared processes that print what they print alone."""

from __future__ import annotations

import math
import textwrap
import time

from tools.site import ROOT

from kb.run import schedule  # noqa: E402 (tools.site: docs/_ext importable)
from kb.run.plan import discover_pages, site_plan  # noqa: E402
from kb.run.platforms import PLATFORMS  # noqa: E402
from kb.run.runner import job, run_one  # noqa: E402
from kb.run.schedule import batch_group, lane  # noqa: E402
from kb.run.snippet import TIMINGS  # noqa: E402


def test_the_device_policy_on_the_sites_programs():
    """Every program gets a lane; PyTorch-only tabs and CPU-by-design programs run beside the device."""
    lanes = {name: lane((ROOT / name).read_text(encoding="utf-8")) for name in site_plan(ROOT / "docs").jobs}
    assert lanes["snippets/start/pt_forward_loss_torch.py"] == "side"
    assert lanes["snippets/xla/msched_peak.py"] == "side"  # pins its own process to the CPU, by design
    assert lanes["snippets/start/pt_agreement.py"] == "device"
    assert lanes["snippets/install/mir_pip_config.py"] == "side"  # its children run pip, never JAX
    assert lanes["snippets/xla/ccache_key.py"] == "device"  # its children compile with JAX
    groups = {name: batch_group((ROOT / name).read_text(encoding="utf-8")) for name, kind in lanes.items() if kind == "device"}
    assert (("JAX_NUM_CPU_DEVICES", "8"),) in groups.values()
    assert groups["snippets/xla/gflag_set.py"] is None  # sets XLA_FLAGS later than its opening lines


def test_every_page_of_the_plan_is_a_page_and_every_loaded_snippet_exists():
    plan = site_plan(ROOT / "docs")
    assert "start/from-pytorch" in plan.pages and "snippets/start/pt_agreement.py" in plan.pages["start/from-pytorch"]
    missing = [name for names in plan.pages.values() for name in names if not (ROOT / name).is_file()]
    assert not missing and plan.pages_of("snippets/start/pt_agreement.py") == ["start/from-pytorch"]


def test_a_bare_machine_finds_the_pages_sphinx_finds():
    """A machine with only python3 discovers the pages itself (kb.run.plan.discover_pages); the build
    asks Sphinx (kb.page.source_pages, with exclude_patterns). One plan needs the two to agree."""
    from tools.site import source_pages

    assert discover_pages(ROOT / "docs") == source_pages()
    assert site_plan(ROOT / "docs") == site_plan(ROOT / "docs", source_pages())


def _programs(root, programs: dict[str, str]):
    """Jobs for ``programs`` ({name: code}) under ``root/snippets/sec/``."""
    jobs = []
    for name, code in programs.items():
        path = root / "snippets" / "sec" / f"{name}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f'"""{name}."""\n' + textwrap.dedent(code), encoding="utf-8")
        jobs.append(job(path, root))
    return jobs


LOOKS_AROUND = textwrap.dedent("""\
    import os, subprocess, sys
    from os import environ  # (a program that reads os.environ later than its opening lines has a process of its own)
    print(sorted(k for k in environ if k.startswith(("JAX_", "XLA_", "KB_"))), os.listdir("."))
    print(sys.stdin.read() == "", __name__, sys.argv == [__file__], sys.path[0] == os.path.dirname(__file__))
    # a program it starts gets its standard streams (nvcc needs a stdin)
    subprocess.run([sys.executable, "-c", "import os; [os.fstat(fd) for fd in (0, 1, 2)]; print('inherited')"], check=True)
""")


def test_a_program_in_a_shared_process_sees_what_it_sees_in_a_fresh_one(tmp_path, monkeypatch):
    """Environment without the build's variables, an empty folder, no stdin, its own __main__, argv
    and sys.path[0], standard streams a program it starts inherits."""
    monkeypatch.setenv("KB_SECRET", "1")
    monkeypatch.setenv("JAX_PLATFORMS", "cpu")
    jobs = _programs(tmp_path, {"a": LOOKS_AROUND, "b": LOOKS_AROUND, "c": LOOKS_AROUND + "import jax\n"})
    shared = schedule.run(jobs, timeout=60, workers=1, platform=PLATFORMS["cpu"])
    fresh = {j.name: run_one(j, 60) for j in jobs}
    for name, record in shared.items():
        assert record["how"] == "batch" and record["stderr"] == "", record["stderr"]
        assert record["stdout"] == fresh[name]["stdout"] == "[] []\nTrue __main__ True True\ninherited\n"


def test_timing_programs_run_last_and_alone_and_a_failure_counts_only_in_a_fresh_process(tmp_path):
    jobs = _programs(tmp_path, {
        "a": "import torch\nprint(torch.ones(1).sum().item())\n",
        "b": "import sys\nassert 'torch' not in sys.modules, 'a shared process had torch already'\nprint('no torch')\n",
        "fresh": "import resource  # Runs in a fresh process: it prints its own peak memory\nprint('own')\n",
        "t": f"{TIMINGS}\nprint('timed')\n",
    })
    order = []
    records = schedule.run(jobs, timeout=120, workers=1, platform=PLATFORMS["cpu"], done=lambda r: order.append(r["snippet"]))
    assert order[-1] == "snippets/sec/t.py" and records["snippets/sec/t.py"]["alone"]
    assert {n.split("/")[-1]: (r["how"], r["alone"]) for n, r in records.items()} == {
        "a.py": ("batch", False), "b.py": ("process", False), "fresh.py": ("process", False), "t.py": ("batch", True)}
    again = records["snippets/sec/b.py"]
    assert again["stdout"] == "no torch\n" and "a shared process had torch already" in again["first_try"]


def test_on_an_exclusive_platform_one_device_program_runs_at_a_time(tmp_path):
    """A TPU lets one process hold the chip: device programs never overlap; the others run beside them."""
    clock = 'import time, pathlib\nstart = time.time()\ntime.sleep(0.5)\n' \
            'pathlib.Path({log!r}).open("a").write(f"{{__file__}} {{start}} {{time.time()}}\\n")\nprint("ran")\n'
    log = str(tmp_path / "log")
    device = "import jax\n" + clock.format(log=log)
    side = "import numpy\n" + clock.format(log=log)
    jobs = _programs(tmp_path, {"d1": device, "d2": device, "d3": device + "import os\nos.environ['X'] = '1'\n",
                                "s1": side, "s2": side})
    records = schedule.run(jobs, timeout=120, workers=2, platform=PLATFORMS["tpu"]._replace(start_seconds=0))
    assert all(r["stdout"] == "ran\n" for r in records.values()), records
    spans = {line.split()[0].split("/")[-1][:-3]: tuple(map(float, line.split()[1:]))
             for line in (tmp_path / "log").read_text().splitlines()}
    devices = sorted(spans[name] for name in ("d1", "d2", "d3"))
    assert all(before[1] <= after[0] for before, after in zip(devices, devices[1:])), spans


def test_a_program_expected_to_end_after_the_deadline_does_not_start(tmp_path):
    jobs = _programs(tmp_path, {"long": "print('long')\n", "short": "print('short')\n"})
    records = schedule.run(jobs, timeout=60, platform=PLATFORMS["cpu"], deadline=time.time() + 60,
                           cost={"snippets/sec/long.py": 600.0, "snippets/sec/short.py": 1.0})
    assert list(records) == ["snippets/sec/short.py"] and math.isinf(schedule.run.__kwdefaults__["deadline"])
