"""kb.run.platforms: what the run core knows of each JAX platform, one row each, and of this machine.

Every fact that differs between a CPU, a GPU and a TPU lives in ``PLATFORMS``, keyed by the name
JAX gives the backend (``jax.default_backend()``):

- ``label``: how pages name it ("TPU"); ``device_names``: JAX's ``device_kind`` where a chip is sold
  under another name (Cloud TPU's v5e reports "TPU v5 lite");
- ``plugins``: the distributions whose presence makes it this environment's platform (a record's
  ``backend``, part of its key, is the installed ones, ``kb.run.store.environment``);
- ``exclusive``: one process at a time may hold the device (libtpu: a second process that opens the
  chip dies on a lockfile instead of falling back, seen on a TPU v5e on 2026-12-01). The scheduler
  (``kb.run.schedule``) then runs one device program at a time, and the site's build refuses to
  start there (``kb.execution``), naming ``pass_command``;
- ``sharing``: the environment that lets the build's programs share the device at once (a GPU:
  JAX would otherwise take 75 % of its memory per process); a reader has the device alone;
- ``start_seconds``: what a fresh process costs beyond the program's own time on that platform
  (start, imports, opening the device: about 15 s on the TPU v5e VM of 2026-12-06, which has no
  transparent hugepages): the scheduler's budget for running a failed program again alone;
- ``precision``: the ``kb.run.precision`` mode that emulates its default matmul precision on the CPU
  (``nox -s precision``);
- ``requirements``: the requirements file of its own build, where it has one (``nox -s docs-gpu``);
- ``pass_command``: how to run every program there (the machine pass, ``tools/machine/``).

``current()`` is this environment's row: the first whose plugins are installed, else the CPU.
Adding a platform is one row (and its start-up messages in ``kb.run.noise``), plus its tests.

``machine_description`` and ``canonical`` are the other machine facts that the build, the canary,
the precision check and the machine pass share: how a machine is named, how a distribution is named.
``machine_parts`` reads a description back into its parts, so that the pages word a machine in the
reader's language (``kb.machines``) instead of quoting the English of a report.

Why our own code: these are the facts of this project's runs (which device may be shared, what
its pass costs); JAX names its platforms but states none of them.
"""

from __future__ import annotations

import functools
import os
import platform
import re
from typing import Iterable, NamedTuple


class Platform(NamedTuple):
    name: str
    label: str
    plugins: tuple[str, ...] = ()
    exclusive: bool = False
    sharing: tuple[tuple[str, str], ...] = ()
    start_seconds: float = 0.0
    precision: str | None = None
    device_names: tuple[tuple[str, str], ...] = ()
    requirements: str | None = None
    pass_command: str = "python3 tools/machine/report.py"


PLATFORMS: dict[str, Platform] = {row.name: row for row in (
    Platform("cpu", "CPU"),
    Platform("gpu", "GPU", plugins=("jax-cuda", "jax-rocm"), sharing=(("XLA_PYTHON_CLIENT_PREALLOCATE", "false"),),
             precision="tf32", requirements="requirements-gpu.txt"),
    Platform("tpu", "TPU", plugins=("libtpu",), exclusive=True, start_seconds=15.0, precision="bf16",
             device_names=(("TPU v5 lite", "TPU v5e"), ("TPU v6 lite", "TPU v6e")),
             pass_command="bash tools/machine/tpu_pass.sh"),
)}
PLUGINS = tuple(plugin for row in PLATFORMS.values() for plugin in row.plugins)


def canonical(name: str) -> str:
    """A distribution's name as PEP 503 normalises it: the one spelling the pins, the records,
    the machine reports and the canary compare.

    >>> canonical("Orbax_Checkpoint"), canonical("zope.interface")
    ('orbax-checkpoint', 'zope-interface')
    """
    return re.sub(r"[-_.]+", "-", name).lower()


def of(installed: Iterable[str]) -> Platform:
    """The platform of an environment with these distributions installed (names, or ``name==version``).

    >>> of(["numpy==2.5.5", "jax==0.12.0.1"]).name, of(["libtpu==0.0.50.1"]).name, of(["jax_cuda13_plugin"]).name
    ('cpu', 'tpu', 'gpu')
    """
    names = [canonical(item.split("==")[0]) for item in installed]
    return next((row for row in PLATFORMS.values() if any(n.startswith(row.plugins) for n in names if row.plugins)),
                PLATFORMS["cpu"])


@functools.lru_cache(maxsize=1)
def current() -> Platform:
    """This environment's platform (read once per process)."""
    from importlib.metadata import distributions

    return of(d.metadata["Name"] for d in distributions() if d.metadata["Name"])


def device_name(kind: str) -> str:
    """The name pages use for a ``device_kind``.

    >>> device_name("TPU v5 lite"), device_name("cpu")
    ('TPU v5e', 'cpu')
    """
    return next((dict(row.device_names)[kind] for row in PLATFORMS.values() if kind in dict(row.device_names)), kind)


def machine_description(accelerators: Iterable[str] = ()) -> str:
    """This machine as every report names it: system, architecture, CPU cores, then the accelerators.

    >>> machine_description(["TPU v5 lite"]).count(", ")
    2
    """
    return ", ".join([f"{platform.system()} {platform.machine()}", f"{os.cpu_count()} CPU cores", *accelerators])


class Machine(NamedTuple):
    system: str
    arch: str
    cores: int | None
    devices: tuple[str, ...]


def machine_parts(description: str) -> Machine:
    """A machine as ``machine_description`` wrote it (a report's ``machine``), or as a record names
    it (``kb.run.child``: system and architecture only), read back into its parts.

    >>> machine_parts("Linux x86_64, 13 CPU cores, TPU v5 lite")
    Machine(system='Linux', arch='x86_64', cores=13, devices=('TPU v5 lite',))
    >>> machine_parts("Linux x86_64"), machine_parts("Darwin arm64, None CPU cores").cores
    (Machine(system='Linux', arch='x86_64', cores=None, devices=()), None)
    >>> machine_parts(machine_description(["TPU v5 lite"])).devices
    ('TPU v5 lite',)
    """
    first, *rest = [part.strip() for part in description.split(",")]
    system, _, arch = first.partition(" ")
    cores = None
    if rest and re.fullmatch(r"(\d+|None) CPU cores", rest[0]):
        count = rest.pop(0).split()[0]
        cores = int(count) if count.isdigit() else None
    return Machine(system, arch.strip(), cores, tuple(part for part in rest if part))
