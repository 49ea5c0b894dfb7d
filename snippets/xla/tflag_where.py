"""Where XLA:TPU flags go: XLA_FLAGS rejects them, libtpu reads them from LIBTPU_INIT_ARGS."""
import os
import re
import subprocess
import sys
import time

# The timings this program prints differ from run to run and from machine to machine.
# This process never imports jax: each child below starts its own backend, one after another,
# so that on a TPU each child holds the chip alone (a second process cannot open it).
TIMEOUT = 120  # seconds per child
BASE_ENV = {k: v for k, v in os.environ.items() if k not in ("XLA_FLAGS", "LIBTPU_INIT_ARGS")}


def run_child(code, *args, **env):
    """Runs `code` in a new Python process with `env` added; returns (exit status, stdout, stderr, seconds)."""
    start = time.perf_counter()
    try:
        run = subprocess.run([sys.executable, "-c", code, *args], env=dict(BASE_ENV, **env),
                             capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "", f"no answer after {TIMEOUT} s", TIMEOUT
    # A TPU VM without transparent hugepages adds one warning to any `import jax`; drop it.
    stderr = re.sub(r".*Transparent hugepages are not enabled.*\n\s*warnings\.warn\(\n", "", run.stderr)
    return run.returncode, run.stdout, stderr, time.perf_counter() - start


def lines_with(text, word):
    return [line.strip() for line in text.splitlines() if word.lower() in line.lower()]


PROBE = "import jax; print(jax.default_backend(), jax.devices()[0].device_kind, sep='|')"
rc, out, err, _ = run_child(PROBE)
assert rc == 0, err
backend, kind = out.strip().splitlines()[-1].split("|")
print(f"backend: {backend} ({kind})")

# A: an XLA:TPU flag in XLA_FLAGS. XLA's parser knows only the flags of DebugOptions, and stops the process.
rc, out, err, seconds = run_child(PROBE, XLA_FLAGS="--xla_tpu_scoped_vmem_limit_kib=65536")
print(f"A  XLA_FLAGS=--xla_tpu_scoped_vmem_limit_kib=65536 -> exit status {rc} after {seconds:.1f} s")
line = (lines_with(err, "Unknown flag") or err.strip().splitlines()[-1:] or ["(no stderr)"])[0]
print("   ", re.sub(r"^F\d{4} [\d:.]+ +\d+ ", "F ", line))  # without the log line's time and thread id
a_result = (rc, err)  # asserted at the end, after the TPU children have run and printed

# The Pallas matmul of the children below: (1024, 1024, 1024) bfloat16 blocks, double-buffered, and a
# float32 accumulator need about 18 MiB of scoped VMEM, more than the 16 MiB default of a TPU v5e.
KERNEL = """
import sys
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

N, B = 2048, 1024
vmem_limit = int(sys.argv[1]) or None  # 0: leave the kernel's limit to libtpu
options = {"xla_tpu_scoped_vmem_limit_kib": "98304"} if sys.argv[2] == "jit" else None


def kernel(a_ref, b_ref, o_ref, acc_ref):
    @pl.when(pl.program_id(2) == 0)
    def _():
        acc_ref[...] = jnp.zeros_like(acc_ref)

    acc_ref[...] += jnp.dot(a_ref[...], b_ref[...], preferred_element_type=jnp.float32)

    @pl.when(pl.program_id(2) == pl.num_programs(2) - 1)
    def _():
        o_ref[...] = acc_ref[...].astype(o_ref.dtype)


matmul = jax.jit(pl.pallas_call(
    kernel, out_shape=jax.ShapeDtypeStruct((N, N), jnp.bfloat16), grid=(N // B, N // B, N // B),
    in_specs=[pl.BlockSpec((B, B), lambda i, j, k: (i, k)), pl.BlockSpec((B, B), lambda i, j, k: (k, j))],
    out_specs=pl.BlockSpec((B, B), lambda i, j, k: (i, j)),
    scratch_shapes=[pltpu.VMEM((B, B), jnp.float32)],
    compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel", "arbitrary"),
                                         vmem_limit_bytes=vmem_limit)), compiler_options=options)
ka, kb = jax.random.split(jax.random.key(0))
a = jax.random.normal(ka, (N, N), jnp.bfloat16)
b = jax.random.normal(kb, (N, N), jnp.bfloat16)
try:
    out = matmul(a, b).astype(jnp.float32)
except Exception as err:  # the compile error arrives at the first call
    text = str(err)
    line = ([x for x in text.splitlines() if "scoped allocation" in x.lower()]
            or [x for x in text.splitlines() if "vmem" in x.lower()] or text.splitlines()[:1])
    print("failed:", type(err).__name__, "|", line[0].strip()[:300])
    print("resource exhausted:", "RESOURCE_EXHAUSTED" in text, "| scoped vmem:", "scoped vmem" in text.lower())
    sys.exit(3)
ref = jnp.dot(a, b, preferred_element_type=jnp.float32)
print("ran: max |error| / max |x @ y| =", float(jnp.abs(out - ref).max() / jnp.abs(ref).max()))
"""

if backend != "tpu":
    print(f"B-F skipped: LIBTPU_INIT_ARGS is read only by libtpu, the TPU runtime; this backend is {backend}")
else:
    children = [  # (name, vmem_limit_bytes of the kernel, compiler_options of jax.jit, environment)
        ("B  no flag", 0, "", {}),
        ("C  LIBTPU_INIT_ARGS=--xla_tpu_scoped_vmem_limit_kib=98304", 0, "",
         {"LIBTPU_INIT_ARGS": "--xla_tpu_scoped_vmem_limit_kib=98304"}),
        ("D  no flag, CompilerParams(vmem_limit_bytes=96 MiB)", 96 * 2**20, "", {}),
        ("E  no flag, jax.jit(compiler_options={'xla_tpu_scoped_vmem_limit_kib': '98304'})", 0, "jit", {}),
    ]
    results = {}
    for name, limit, jit_options, env in children:
        rc, out, err, seconds = run_child(KERNEL, str(limit), jit_options, **env)
        results[name[0]] = (rc, out)
        print(f"{name} -> exit status {rc} after {seconds:.1f} s")
        for line in (out.strip().splitlines() or err.strip().splitlines()[-3:]):
            print("   ", line[:300])

    # F: an unknown flag in LIBTPU_INIT_ARGS. What libtpu does with it, and whether it takes E's
    # per-function option, is recorded here, not asserted.
    rc, out, err, seconds = run_child("import jax, jax.numpy as jnp; print('ran:', float(jnp.ones(4).sum()))",
                                      LIBTPU_INIT_ARGS="--xla_tpu_no_such_flag=1")
    print(f"F  LIBTPU_INIT_ARGS=--xla_tpu_no_such_flag=1 -> exit status {rc} after {seconds:.1f} s")
    print("    stdout:", out.strip()[-200:] or "(empty)")
    for line in err.strip().splitlines()[-4:]:
        print("    stderr:", line[:300])

    if kind == "TPU v5 lite":  # measured on a TPU v5e, whose default scoped VMEM limit is 16 MiB
        rc, out = results["B"]
        assert rc == 3 and "resource exhausted: True | scoped vmem: True" in out, out
        for key in "CD":
            rc, out = results[key]
            assert rc == 0 and "ran:" in out and float(out.split("=")[-1]) < 1e-2, (key, out)

rc, err = a_result
assert rc not in (0, None) and "Unknown flag in XLA_FLAGS" in err, err
