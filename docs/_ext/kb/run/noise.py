"""kb.run.noise: what a platform's runtime prints whatever the program does, and why it is harmless.

A snippet that writes to stderr fails (``kb.run.store.problem``): a warning there is a warning the
reader will see, and the page must not hide it. But some platforms print a message at start-up
that no program can avoid and no reader can act on from the program: JAX on a TPU VM whose kernel
has transparent hugepages off warns about the VM's start-up time whenever a program opens the
chip, whatever the program does. Counting that as the program's failure would fail every JAX
program there; hiding it would hide what a reader sees. So this module is the one table of such
messages, each with its reason:

- ``split(stderr)`` takes every tabled message out of a run's stderr and returns what is left
  (which still fails the run if it is not empty) and the ids of the messages it took out, which
  the record's reader shows ("platform noise: tpu-hugepages").
- A message joins the table only with a reason a reviewer can check: where it comes from (the
  source line in JAX or the runtime), and why it says nothing about the program.

>>> warning = ("/x/jax/_src/cloud_tpu_init.py:90: UserWarning: Transparent hugepages are not enabled. "
...            "TPU runtime startup and shutdown time should be significantly improved on TPU v5e and newer. "
...            'If not already set, you may need to enable transparent hugepages in your VM image '
...            '(sudo sh -c "echo always > /sys/kernel/mm/transparent_hugepage/enabled")\\n  warnings.warn(\\n')
>>> split(warning)
('', ['tpu-hugepages'])
>>> split(warning + "snippet.py:3: UserWarning: mine\\n")
('snippet.py:3: UserWarning: mine\\n', ['tpu-hugepages'])
>>> split("x.py:1: UserWarning: Transparent hugepages are not enabled.\\n")  # not JAX's own line: the program's
('x.py:1: UserWarning: Transparent hugepages are not enabled.\\n', [])
"""

from __future__ import annotations

import re
from typing import NamedTuple


class Noise(NamedTuple):
    """One message a platform prints whatever the program does."""

    id: str
    pattern: re.Pattern[str]
    source: str
    reason: str


TABLE: tuple[Noise, ...] = (
    Noise(
        "tpu-hugepages",
        re.compile(r"^[^\n]*/jax/_src/cloud_tpu_init\.py:\d+: UserWarning: Transparent hugepages are not enabled\."
                   r"[^\n]*\n(?:  warnings\.warn\(\n)?", re.MULTILINE),
        "jax/_src/cloud_tpu_init.py, cloud_tpu_init(): warns when the chip is a TPU v5e or newer and "
        "/sys/kernel/mm/transparent_hugepage/enabled is not 'always'",
        "It is about the VM's kernel setting and the TPU runtime's start-up time, checked once when a "
        "process starts the TPU backend: every JAX program on such a VM prints it, whatever it computes. "
        "A reader fixes it in the VM image (as root), not in the program.",
    ),
)
BY_ID = {noise.id: noise for noise in TABLE}


def split(stderr: str) -> tuple[str, list[str]]:
    """(stderr without the tabled messages, the ids of those found, in table order)."""
    found = []
    for noise in TABLE:
        stderr, count = noise.pattern.subn("", stderr)
        if count:
            found.append(noise.id)
    return stderr, found
