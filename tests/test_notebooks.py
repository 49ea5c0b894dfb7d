"""Every page's notebook as a reader runs it (kb.notebooks, tools/notebooks.py; nox -s notebooks
runs them all, nightly in canary.yml): here, a sample of the built site's notebooks in one kernel
each, a fixture notebook whose failing cell fails naming the notebook and the cell, the restart
notes and the Colab install cell of every built notebook, in both languages."""

from __future__ import annotations

import json
import re
import sys
import types

import nbformat
import pytest

from tools.notebooks import main, run_notebook
from tools.site import LANGUAGES, ROOT, SOURCE_LANGUAGE

from kb.notebooks import colab_packages, restarts, runtime_pins  # noqa: E402 (tools.site makes docs/_ext importable)

# A small notebook with restarts of both causes, a program and a setting: two programs that need a
# process of their own (parallel/dev_emulate_order, dev_confirm_backend), then one that sets
# JAX_NUM_CPU_DEVICES before importing JAX (dev_make_mesh): run in the kernel before it, without the
# restart, it finds one device and fails. Four kernels, about 20 s on the 2-core CI machine, where
# core/vmap and core/sharp-bits took 35 to 50 s in six; the nightly run (nox -s notebooks) runs
# every notebook.
SAMPLE = ["parallel/devices-meshes"]
CJK = re.compile(r"[\u4e00-\u9fff]")


def built_notebooks(site, language):
    return sorted((site / language / "_kb" / "notebooks").rglob("*.ipynb"))


@pytest.mark.parametrize("page", SAMPLE)
def test_a_sample_of_the_notebooks_runs_top_to_bottom_as_the_pages_show(site, page):
    result = run_notebook(site / SOURCE_LANGUAGE / "_kb" / "notebooks" / f"{page}.ipynb", page, timeout=300)
    assert not result.problems, "\n".join(result.problems)
    assert result.restarts >= 3  # the sample's restarts (own, own, settings), so following one is tested too


def _notebook(path, cells):
    nb = nbformat.v4.new_notebook()
    for source, metadata, outputs in cells:
        cell = nbformat.v4.new_code_cell(source, metadata=metadata)
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=text) for text in outputs]
        nb.cells.append(cell)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nbformat.write(nb, path)
    return path


def test_a_failing_cell_fails_naming_its_notebook_and_cell(tmp_path):
    """A raised error and an output unlike the page's each fail with the notebook, the cell's
    number and its snippet; the kernel is fresh where the notebook says to restart, and only there."""
    broken = _notebook(tmp_path / "broken.ipynb", [
        ("left = 1\nprint('one')", {"load": "snippets/sec/one.py"}, ["one\n"]),
        ("print('left' in globals())", {"load": "snippets/sec/same.py"}, ["True\n"]),
        ("print('left' in globals())", {"load": "snippets/sec/fresh.py", "kb": {"restart": "own", "lines": 0}}, ["False\n"]),
        ("print('three')", {"load": "snippets/sec/other.py"}, ["two\n"]),
        ("raise ValueError('broken on purpose')", {"load": "snippets/sec/bad.py"}, []),
        ("print('never runs')", {"load": "snippets/sec/after.py"}, ["never runs\n"]),
    ])
    result = run_notebook(broken, "sec/broken", timeout=120)
    assert result.restarts == 1
    assert len(result.problems) == 2, result.problems
    differs, failed = result.problems
    assert differs.startswith("sec/broken, cell 4 (snippets/sec/other.py): prints something else")
    assert "'two'" in differs and "'three'" in differs
    assert failed.startswith("sec/broken, cell 5 (snippets/sec/bad.py) failed:") and "broken on purpose" in failed


def test_kernels_run_over_unix_sockets_where_the_machine_refuses_network_ones(tmp_path, monkeypatch):
    """The lent TPU VM refuses every AF_INET socket: there the runner talks to its kernels over
    Unix sockets (Jupyter's ipc transport), and a notebook runs, restart included, as over TCP."""
    import socket

    from tools import notebooks

    real = socket.socket

    def network_refused(family=-1, *args, **kwargs):  # as on the VM: AF_INET (the default) fails, AF_UNIX works
        if family in (-1, socket.AF_INET, socket.AF_INET6):
            raise OSError(97, "Address family not supported by protocol")
        return real(family, *args, **kwargs)

    assert notebooks.transport() == "tcp"
    path = _notebook(tmp_path / "ipc.ipynb", [
        ("left = 1\nprint('one')", {"load": "snippets/sec/one.py"}, ["one\n"]),
        ("print('left' in globals())", {"load": "snippets/sec/fresh.py", "kb": {"restart": "own", "lines": 0}}, ["False\n"])])
    monkeypatch.setattr(socket, "socket", network_refused)  # Jupyter's TCP ports come from socket.socket()
    assert notebooks.transport() == "ipc"
    result = run_notebook(path, "sec/ipc", timeout=120)
    assert not result.problems and result.restarts == 1, result.problems


def test_the_command_fails_and_reports_a_failing_notebook(tmp_path, capsys):
    site = tmp_path / "site"
    folder = site / SOURCE_LANGUAGE / "_kb" / "notebooks" / "sec"
    folder.mkdir(parents=True)
    _notebook(folder / "bad.ipynb", [("import sys\nprint('oops', file=sys.stderr)", {"load": "snippets/sec/bad.py"}, [])])
    assert main(["--site", str(site), "--out", str(tmp_path / "out")]) == 1
    assert "sec/bad, cell 1 (snippets/sec/bad.py): wrote to stderr" in capsys.readouterr().out
    report = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert "0 of 1 ran" in report and "| sec/bad | 1 | 0 |" in report


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_notebook_says_where_to_restart_and_installs_the_pins_on_colab(site, language):
    """The runtime note and the install cell come first; a restart note (in the page's language,
    through kb.po) stands before exactly the programs kb.notebooks.restarts names, and the program
    under it says so on its first line; the programs themselves are the snippets, unchanged."""
    notebooks = built_notebooks(site, language)
    assert len(notebooks) > 50
    pins = runtime_pins(ROOT / "requirements.txt")
    for path in notebooks:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        name = path.relative_to(site / language).as_posix()
        assert [c["metadata"].get("kb", {}).get("added") for c in cells[:2]] == ["runtime", "install"], name
        programs = [c for c in cells if c["cell_type"] == "code" and "load" in c["metadata"]]
        sources = [(ROOT / c["metadata"]["load"]).read_text(encoding="utf-8") for c in programs]
        install = "".join(cells[1]["source"])
        for package in colab_packages(sources, pins):
            assert f'"{package}"' in install, (name, package)
        plan = restarts(sources)
        for program, source, step in zip(programs, sources, plan):
            text = "".join(program["source"])
            before = cells[cells.index(program) - 1]
            if step is None:
                assert text == source and "kb" not in program["metadata"], (name, program["metadata"]["load"])
                continue
            assert program["metadata"]["kb"]["restart"] == step[0]
            comment, _newline, rest = text.partition("\n")
            assert rest == source and comment.startswith("# "), name
            assert before["metadata"]["kb"]["added"] == "restart", name
            if language != SOURCE_LANGUAGE:
                assert CJK.search(comment) and CJK.search("".join(before["source"])), name
        # The page's prose, rendered from its doctree in its language (kb.markdown), not MyST source.
        prose = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown" and "kb" not in c["metadata"])
        assert prose.startswith("<a id=") and "{ref}`" not in prose and not re.search(r"^\(\S+\)=$", prose, re.M), name
        if language != SOURCE_LANGUAGE:
            assert CJK.search("".join(cells[0]["source"])) and CJK.search(install), name
            assert len(CJK.findall(prose)) > len(re.findall(r"\b[a-z]+\b", prose)) / 4, name  # Chinese, code names aside


def test_some_notebooks_restart_for_each_reason(site):
    """The site holds every kind of restart (so the checks above check something)."""
    reasons = set()
    for path in built_notebooks(site, SOURCE_LANGUAGE):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        reasons |= {c["metadata"].get("kb", {}).get("restart") for c in cells} - {None}
    assert reasons == {"own", "settings", "defaults", "changed"}


def test_the_install_cell_installs_the_pins_with_the_runtimes_plugin(site, monkeypatch):
    """The install cell as IPython runs it: nothing outside Colab; on Colab, %pip with the pins,
    jax with the TPU extra on a TPU runtime, the CUDA one on a GPU runtime, none on a CPU one."""
    from IPython.core.inputtransformer2 import TransformerManager

    cell = json.loads((site / SOURCE_LANGUAGE / "_kb" / "notebooks" / "core" / "jit.ipynb").read_text(encoding="utf-8"))["cells"][1]
    code = compile(TransformerManager().transform_cell("".join(cell["source"])), "install", "exec")

    def run(colab: bool, tpu: bool, gpu: bool) -> list[str]:
        calls = []
        shell = types.SimpleNamespace(run_line_magic=lambda magic, line, _depth=1: calls.append(f"{magic} {line}"))
        namespace = {"get_ipython": lambda: shell}
        monkeypatch.setattr("importlib.util.find_spec", lambda name: object() if colab and name == "google.colab" else None)
        monkeypatch.setattr("glob.glob", lambda pattern: ["/dev/accel0"] if tpu and "accel" in pattern else [])
        monkeypatch.setattr("shutil.which", lambda name: "/usr/bin/nvidia-smi" if gpu else None)
        exec(code, namespace)
        # IPython expands {jax_extra} in a magic's line from the cell's namespace
        return [c.replace("{jax_extra}", namespace.get("jax_extra", "?")) for c in calls]

    assert run(colab=False, tpu=True, gpu=True) == []
    pins = runtime_pins(ROOT / "requirements.txt")
    (tpu,) = run(colab=True, tpu=True, gpu=False)
    assert tpu.startswith("pip install -q ") and f'"jax[tpu]=={pins["jax"]}"' in tpu and f'"jaxlib=={pins["jaxlib"]}"' in tpu
    assert f'"jax[cuda13]=={pins["jax"]}"' in run(colab=True, tpu=False, gpu=True)[0]
    assert f'"jax=={pins["jax"]}"' in run(colab=True, tpu=False, gpu=False)[0]
    assert sys.modules.get("google.colab") is None


def test_the_repository_is_kb_repo_url_else_the_themes_and_only_github_gets_a_link():
    from types import SimpleNamespace

    from kb.downloads import repository_url
    from kb.notebooks import colab_url

    theme = "https://" + "github.com/a/theme-repo"
    assert repository_url(SimpleNamespace(kb_repo_url="", html_theme_options={"repository_url": theme})) == theme
    assert repository_url(SimpleNamespace(kb_repo_url="https://" + "github.com/a/b", html_theme_options={})).endswith("/a/b")
    assert repository_url(SimpleNamespace(kb_repo_url="", html_theme_options={})) == ""
    assert colab_url(theme, "en", "core/jit").endswith("/a/theme-repo/blob/colab-notebooks/en/core/jit.ipynb")
    assert colab_url("https://gitlab.com/a/b", "en", "core/jit") is None  # Colab opens GitHub only
