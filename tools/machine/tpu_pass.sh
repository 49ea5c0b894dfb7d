#!/usr/bin/env bash
# The TPU pass: every snippet on a TPU VM that has Python, JAX with libtpu and nothing else of ours.
#
#   bash tools/machine/tpu_pass.sh [BUDGET_SECONDS]
#
# 1. Installs once (a marker file remembers it) what the snippets import beside JAX into a folder
#    of its own, added at the END of PYTHONPATH so that the machine's own jax, jaxlib and libtpu
#    stay first: flax, optax, orbax-checkpoint, scikit-learn, matplotlib, transformers, safetensors from the package index
#    (KB_PIP_INDEX, default the machine's local index file:///opt/pypi/simple if it exists, else
#    pip's own), torch's CPU build (KB_TORCH_LINKS, default /opt/wheels if it exists), and every
#    wheel in KB_WHEELS (default .whl-tpu/: what the index lacks, e.g. grain and its needs), and
#    Triton from KB_MORE_LINKS (default /opt/pypi-more/files if it exists): the pinned version if it
#    is there, else the newest it has (the TPU VM of 2026-12-06 had 3.6.0 and 3.8.0, not 3.7.1; the
#    report lists it under `distributions`). The Triton-interpreter programs need it, and its
#    wheel, 190 MB, is too large to carry.
# 2. Runs `python3 tools/machine/report.py --policy tpu` (the TPU's policy: one program holds the
#    chip at a time, in shared processes by group; the others beside it, KB_PASS_WORKERS at a time,
#    default 4: each PyTorch program uses every core, so more would slow the device lane's
#    compiles), starting no program expected to end after BUDGET_SECONDS (default: no limit; the
#    expected seconds are each program's in the committed reports, KB_PASS_EXPECT), keeping finished
#    runs in KB_PASS_STATE (default _build/machine-pass). Run it again to go on where it stopped:
#    nothing already run runs again.
# 3. Writes the report (so far) to KB_PASS_OUT (default reports/machines/) while it runs (every 30 s,
#    so that a call the device cuts off still leaves one) and after every call, with
#    the pending programs listed; the pass is complete when none is pending.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUDGET=${1:-inf}
SITE=${KB_PASS_SITE:-/tmp/kb-pass-site}
STATE=${KB_PASS_STATE:-_build/machine-pass}
OUT=${KB_PASS_OUT:-reports/machines}
WHEELS=${KB_WHEELS:-.whl-tpu}
INDEX=${KB_PIP_INDEX:-}
if [ -z "$INDEX" ] && [ -d /opt/pypi/simple ]; then INDEX=file:///opt/pypi/simple; fi
LINKS=${KB_TORCH_LINKS:-}
if [ -z "$LINKS" ] && [ -d /opt/wheels ]; then LINKS=/opt/wheels; fi
MORE=${KB_MORE_LINKS:-}
if [ -z "$MORE" ] && [ -d /opt/pypi-more/files ]; then MORE=/opt/pypi-more/files; fi

if [ ! -f "$SITE/.kb-installed" ]; then
  start=$(date +%s)
  pip=(env PIP_CONFIG_FILE=/dev/null python3 -m pip install --isolated -q --disable-pip-version-check
       --no-compile --only-binary=:all: --target "$SITE" --upgrade)
  [ -n "$INDEX" ] && pip+=(--index-url "$INDEX")
  # A package that does not install is reported and left out: its programs then say "not installed here".
  "${pip[@]}" flax optax orbax-checkpoint scikit-learn matplotlib transformers safetensors || for name in flax optax orbax-checkpoint scikit-learn matplotlib transformers safetensors; do
    "${pip[@]}" "$name" || echo "tpu_pass: $name did not install" >&2
  done
  if [ -n "$LINKS" ]; then "${pip[@]}" --find-links "$LINKS" torch; else "${pip[@]}" torch; fi || echo "tpu_pass: torch did not install" >&2
  triton=$(grep -E '^triton==' requirements.txt || true)
  if [ -n "$MORE" ] && [ -n "$triton" ]; then
    "${pip[@]}" --no-deps --find-links "$MORE" "$triton" || "${pip[@]}" --no-deps --find-links "$MORE" triton \
      || echo "tpu_pass: triton did not install" >&2
  fi
  # One wheel at a time: a wheel this machine cannot take (a newer glibc, another Python) is
  # reported and left out instead of stopping the others.
  for wheel in "$WHEELS"/*.whl; do
    [ -e "$wheel" ] || continue
    env PIP_CONFIG_FILE=/dev/null python3 -m pip install --isolated -q --disable-pip-version-check --no-index \
      --no-deps --no-compile --upgrade --target "$SITE/wheels" "$wheel" || echo "tpu_pass: $wheel did not install" >&2
  done
  touch "$SITE/.kb-installed"
  echo "installed in $(( $(date +%s) - start )) s" >&2
fi
# The machine's packages first, then ours, then the carried wheels.
export PYTHONPATH="${PYTHONPATH:+$PYTHONPATH:}$SITE:$SITE/wheels"
python3 -c 'import importlib.metadata as m, platform
def v(n):
    try: return m.version(n)
    except m.PackageNotFoundError: return "absent"
print("python", platform.python_version(), "| glibc", platform.libc_ver()[1], "|", ", ".join(f"{n} {v(n)}" for n in ("jax", "jaxlib", "libtpu", "flax", "optax", "orbax-checkpoint", "torch", "triton", "grain", "numpy", "scipy", "transformers", "safetensors")))' >&2
# KB_PASS_ONLY: globs of snippet names (default all). KB_PASS_MERGE: a committed report of an earlier sitting (its unchanged programs are not run again).
# KB_PASS_EXPECT: reports whose seconds are the expected times (default the committed ones).
expect=()
for report in ${KB_PASS_EXPECT:-reports/machines/*.json}; do [ -f "$report" ] && expect+=(--expect "$report"); done
exec python3 tools/machine/report.py --policy tpu ${KB_PASS_MERGE:+--merge "$KB_PASS_MERGE"} ${KB_PASS_ONLY:+--only "$KB_PASS_ONLY"} "${expect[@]}" --workers "${KB_PASS_WORKERS:-4}" --budget "$BUDGET" --timeout "${KB_PASS_TIMEOUT:-300}" --state "$STATE" --out "$OUT"
