#!/usr/bin/env bash
# The TPU pass on the site's own versions: every snippet on a lent TPU VM, with Python 3.12 and the pins.
#
#   bash tools/machine/tpu_pass.sh [BUDGET_SECONDS]
#
# The VM has Python 3.11 with its own jax 0.10.2, a package index of cp311 wheels and no network;
# the pins need Python 3.12 (jax 0.12), which the VM has as `PYENV_VERSION=3.12.1 python3.12`.
# 1. Here, once: `.nox/kb/bin/python tools/machine/wheels.py download` packs every pinned wheel the
#    programs need, for CPython 3.12, into pieces under .whl-tpu/pinned/; each device call carries one
#    (`python3 tools/machine/wheels.py receive PIECE`, into the VM's /tmp). reports/machines/README.md
#    has the calls.
# 2. There, the first time (for these pieces): joins the pieces, checks every byte against the
#    manifest and installs the wheels into KB_PASS_SITE (default /tmp/kb-pinned) for python3.12
#    (tools/machine/wheels.py install); the torch bundle too when its pieces came (`wheels.py download
#    --torch`: torch and triton with stand-ins for torch's NVIDIA libraries, put on LD_LIBRARY_PATH).
# 3. Runs `python3.12 tools/machine/report.py --policy tpu` with that folder first on PYTHONPATH (the
#    VM's own entries stay after it, for its TPU_ settings' sake; its cp311 jax is not imported): the
#    build's scheduler under the TPU's policy, one program on the chip at a time, in shared processes
#    where a program allows it, the programs that start no accelerator beside it (KB_PASS_WORKERS at a
#    time, default 4), no program started that is expected to end after BUDGET_SECONDS (default: no
#    limit; expected seconds from the committed reports, KB_PASS_EXPECT), finished runs kept in
#    KB_PASS_STATE (default _build/machine-pass). Run it again to go on where it stopped.
# 4. Writes the report (so far) to KB_PASS_OUT (default reports/machines/) every 30 s and at the end,
#    with the pending programs listed; the pass is complete when none is pending.
# 5. With KB_PASS_NOTEBOOKS=N, then runs the notebooks of the N pages whose programs held the chip
#    longest in the KB_PASS_EXPECT reports, one kernel each, as `nox -s notebooks` runs them, under the
#    same budget, into the same report (`notebooks`; report.py --notebooks). They are the built site's
#    (KB_PASS_NOTEBOOK_SITE, default _build/html): build the site here and carry _build/html/en/_kb/notebooks.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUDGET=${1:-inf}
SITE=${KB_PASS_SITE:-/tmp/kb-pinned}
STATE=${KB_PASS_STATE:-_build/machine-pass}
OUT=${KB_PASS_OUT:-reports/machines}
PY=(env PYENV_VERSION="${KB_PASS_PYENV:-3.12.1}" python3.12)

# Installed once per set of pieces: a machine that installed another set (before the notebook runner's
# wheels joined them, say) installs again.
if ! cmp -s /tmp/kb-pieces/pinned/MANIFEST.json "$SITE/.kb-installed"; then
  start=$(date +%s)
  "${PY[@]}" tools/machine/wheels.py install --target "$SITE"
  cp /tmp/kb-pieces/pinned/MANIFEST.json "$SITE/.kb-installed"
  echo "installed in $(( $(date +%s) - start )) s" >&2
fi
if [ -f /tmp/kb-pieces/torch/MANIFEST.json ] && ! cmp -s /tmp/kb-pieces/torch/MANIFEST.json "$SITE/.kb-installed-torch"; then
  # The torch bundle (wheels.py download --torch): the registry's CUDA build of torch, its needs, and
  # stand-ins for its NVIDIA libraries, so that it imports and runs on the CPU as on a GPU-less machine.
  "${PY[@]}" tools/machine/wheels.py install --target "$SITE" --bundle torch
  cp /tmp/kb-pieces/torch/MANIFEST.json "$SITE/.kb-installed-torch"
fi
[ -d "$SITE/kb-cuda-stubs" ] && export LD_LIBRARY_PATH="$SITE/kb-cuda-stubs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}"
"${PY[@]}" -c 'import importlib.metadata as m, platform
def v(n):
    try: return m.version(n)
    except m.PackageNotFoundError: return "absent"
print("python", platform.python_version(), "| glibc", platform.libc_ver()[1], "|", ", ".join(f"{n} {v(n)}" for n in ("jax", "jaxlib", "libtpu", "flax", "optax", "orbax-checkpoint", "torch", "triton", "grain", "numpy", "scipy", "transformers", "safetensors")))' >&2
# KB_PASS_ONLY: globs of snippet names (default all). KB_PASS_MERGE: a committed report of an earlier sitting (its unchanged programs are not run again).
# KB_PASS_EXPECT: reports whose seconds are the expected times (default the committed ones).
expect=()
for report in ${KB_PASS_EXPECT:-reports/machines/*.json}; do [ -f "$report" ] && expect+=(--expect "$report"); done
exec "${PY[@]}" tools/machine/report.py --policy tpu ${KB_PASS_MERGE:+--merge "$KB_PASS_MERGE"} ${KB_PASS_ONLY:+--only "$KB_PASS_ONLY"} "${expect[@]}" --notebooks "${KB_PASS_NOTEBOOKS:-0}" --notebook-site "${KB_PASS_NOTEBOOK_SITE:-_build/html}" --workers "${KB_PASS_WORKERS:-4}" --budget "$BUDGET" --timeout "${KB_PASS_TIMEOUT:-300}" --state "$STATE" --out "$OUT"
