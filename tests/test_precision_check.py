"""The precision check (tools/precision_check.py, kb.run.precision): on the CPU, a comparison
whose tolerance holds only at full float32 fails as it does on a TPU or GPU, and one whose
program asked for "highest"/"float32" passes.

The site's own comparison programs under bf16 (``nox -s precision``) take about five minutes on
two cores: the whole selection runs when an author refreshes the committed check
(``docs/_data/precision-bf16.json``), and here, in CI, which has no accelerator, every program
that the committed check does not cover as it is now runs under the emulation
(``test_every_comparison_program_holds_at_a_tpus_default_precision``). That is how CI catches a
tolerance that holds only at the CPU's full float32 (the first TPU sample failed 14 % of its
programs on that, 2026-12). The other tests prove the mechanism.
"""

from __future__ import annotations

from kb.run import runner
from kb.run.store import problem
from kb.run import precision
from tools import precision_check
from tools.site import ROOT

# A jnp product against NumPy's float32 one, at rtol 1e-6: true on the CPU, not at DEFAULT
# precision on an accelerator (bf16: ~1e-3, TF32: ~1e-4). The JAX_NUM_CPU_DEVICES setting before
# `import jax` must still be seen: the emulation waits for the program's own import.
PROGRAM = '''"""A matmul against NumPy at rtol 1e-6."""
import os
os.environ.setdefault("JAX_NUM_CPU_DEVICES", "2")
import jax
import jax.numpy as jnp
import numpy as np
{setting}
rng = np.random.default_rng(0)
a = rng.standard_normal((32, 32), dtype=np.float32)
b = rng.standard_normal((32, 32), dtype=np.float32)
ours = np.asarray({product})
rel = float(np.abs(ours - a @ b).max() / np.abs(a @ b).max())
print(f"devices {{jax.device_count()}}, relative error {{rel:.1e}}")
assert jax.device_count() == 2
assert rel < 1e-6, rel
'''
PROGRAMS = {
    "default": PROGRAM.format(setting="", product="jnp.asarray(a) @ jnp.asarray(b)"),
    "config_highest": PROGRAM.format(setting='jax.config.update("jax_default_matmul_precision", "highest")',
                                     product="jnp.asarray(a) @ jnp.asarray(b)"),
    "per_call_highest": PROGRAM.format(setting="", product='jnp.dot(a, b, precision="highest")'),
}
# ``with jax.default_matmul_precision("float32"):`` around a jitted product, written as a program does.
CONTEXT = '''"""A matmul against NumPy at rtol 1e-6, float32 by the context manager."""
import jax
import jax.numpy as jnp
import numpy as np
rng = np.random.default_rng(0)
a = rng.standard_normal((32, 32), dtype=np.float32)
b = rng.standard_normal((32, 32), dtype=np.float32)
with jax.default_matmul_precision("float32"):
    ours = np.asarray(jax.jit(lambda x, y: x @ y)(a, b))
rel = float(np.abs(ours - a @ b).max() / np.abs(a @ b).max())
print(f"relative error {rel:.1e}")
assert rel < 1e-6, rel
'''


def _jobs(tmp_path):
    jobs = {}
    for name, source in {**PROGRAMS, "context_float32": CONTEXT}.items():
        path = tmp_path / "snippets" / "prec" / f"{name}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
        assert precision_check.selected(source), name  # each is a program the check selects
        jobs[name] = runner.job(path, tmp_path)
    return jobs


def _outcomes(records):
    return {r["snippet"].rsplit("/", 1)[1][:-3]: problem(r) is None for r in records}


def test_a_float32_tolerance_fails_under_the_emulation_and_highest_passes(tmp_path):
    """Without the emulation all four pass (the CPU computes float32); under bf16 the DEFAULT
    product fails its 1e-6, and the three ways of asking for float32 pass; TF32 fails it too."""
    jobs = _jobs(tmp_path)
    plain = precision_check.check(jobs.values(), None, timeout=120)
    assert all(_outcomes(plain).values()) and len(plain) == 4, [r["stderr"] for r in plain]
    bf16 = precision_check.check(jobs.values(), "bf16", timeout=120)
    assert _outcomes(bf16) == {"default": False, "config_highest": True, "context_float32": True,
                               "per_call_highest": True}, [(r["snippet"], r["stderr"][-300:]) for r in bf16]
    line = PROGRAMS["default"].splitlines().index("assert rel < 1e-6, rel") + 1
    [failed] = [r for r in bf16 if problem(r) is not None]
    assert failed["error_line"] == line and "AssertionError" in failed["stderr"]
    assert f"line {line}: AssertionError: " in precision_check.first_error(failed, PROGRAMS["default"])
    [tf32] = precision_check.check([jobs["default"]], "tf32", timeout=120)
    assert problem(tf32) is not None and tf32["error_line"] == line
    assert {r['how'] for r in bf16} <= {'batch', 'process'} and len({r['key'] for r in plain + bf16}) == 8  # the mode is in the key


def test_a_default_convolution_is_rounded_and_a_highest_one_is_not():
    """conv_general_dilated as dot_general: 1 + 2**-10 is 1 in bfloat16, itself in TF32 and float32."""
    import jax
    import jax.numpy as jnp

    cpu = jax.devices("cpu")[0]
    lhs = jax.device_put(jnp.full((1, 1, 4), 1 + 2**-10, jnp.float32), cpu)
    rhs = jax.device_put(jnp.ones((1, 1, 1), jnp.float32), cpu)

    def excess(**kw):
        return float(jax.lax.conv_general_dilated(lhs, rhs, (1,), "VALID", **kw)[0, 0, 0] - 1) * 2**10

    with precision.emulated("bf16"):
        assert (excess(), excess(precision="highest")) == (0.0, 1.0)
    with precision.emulated("tf32"):
        assert excess() == 1.0
    assert excess() == 1.0


def test_every_comparison_program_holds_at_a_tpus_default_precision():
    """Every selected program of the site holds under the bf16 emulation: by the committed check
    (same bytes, not failed there) or by running here now (artefacts of the emulation,
    ``precision_check.verdict``, are not counted, as ``nox -s precision`` counts them)."""
    items = precision_check.selection()
    assert len(items) > 150, len(items)  # the selection still finds the comparison programs
    todo, failed = precision_check.stale(items)
    assert not failed, f"failed in the committed check ({precision_check.MANIFEST.name}): {failed}"
    assert len(todo) < len(items), "no committed check: run nox -s precision and commit its manifest"
    records = precision_check.check(todo, "bf16") if todo else []
    assert len(records) == len(todo)
    verdicts = {r["snippet"]: precision_check.verdict(r, (ROOT / r["snippet"]).read_text(encoding="utf-8"))
                for r in records}
    failed = {name: why for name, (kind, why) in verdicts.items() if kind == "failed"}
    assert not failed, failed


def test_the_committed_check_counts_an_edited_program_as_not_covered(tmp_path):
    """stale(): a program whose bytes changed since the manifest runs again; a failed entry is reported."""
    import json

    jobs = _jobs(tmp_path)
    manifest = tmp_path / "m.json"
    entries = {job.name: {"sha256": precision_check.snippet_digest(job.path), "verdict": "ok"} for job in jobs.values()}
    entries[jobs["default"].name] = {"sha256": precision_check.snippet_digest(jobs["default"].path), "verdict": "failed",
                                     "why": "line 16: AssertionError"}
    manifest.write_text(json.dumps({"programs": entries}))
    assert precision_check.stale(jobs.values(), manifest) == ([], {jobs["default"].name: "line 16: AssertionError"})
    jobs["config_highest"].path.write_text(jobs["config_highest"].path.read_text() + "# edited\n")
    todo, _ = precision_check.stale(jobs.values(), manifest)
    assert [j.name for j in todo] == [jobs["config_highest"].name]
