"""kb.machines: a machine, as the pages name it, in the reader's language.

A machine report names its machine in English, ``"Linux x86_64, 13 CPU cores, TPU v5 lite"``
(``kb.run.platforms.machine_description``), and a record names the machine that built the site
``"Linux x86_64"`` (``kb.run.child``). The pages never quote either string: ``machine_text`` reads
it back into its parts (``kb.run.platforms.machine_parts``) and words them with the templates of
the interface catalogue (``kb.translations``), each device by the name pages use for it
(``kb.run.platforms.device_name``: "TPU v5e", not JAX's "TPU v5 lite"). The Chinese build thus
writes “TPU v5e，x86_64 Linux，13 核 CPU” where the English writes "Linux x86_64, 13 CPU cores, TPU
v5e". The header box's lines (``kb.provenance``, ``kb.accelerator_status``), the box beside a timing
cell's output (``kb.accelerator_runs``) and the status page's list all take the machine from here.
"""

from __future__ import annotations

from .run.platforms import device_name, machine_parts
from .translations import _, separator


def machine_text(description: str) -> str:
    """A report's or a record's machine, from its parts, in the build's language.

    >>> machine_text("Linux x86_64, 13 CPU cores, TPU v5 lite")
    'Linux x86_64, 13 CPU cores, TPU v5e'
    >>> machine_text("Linux x86_64, 2 CPU cores"), machine_text("Linux x86_64")
    ('Linux x86_64, 2 CPU cores', 'Linux x86_64')
    >>> machine_text("Linux x86_64, 16 CPU cores, NVIDIA H200, NVIDIA H100")
    'Linux x86_64, 16 CPU cores, NVIDIA H200, NVIDIA H100'
    """
    parts = machine_parts(description)
    system = str(_("{system} {arch}")).format(system=parts.system, arch=parts.arch) if parts.arch else parts.system
    devices = separator(_("{device}, {next_device}")).join(device_name(kind) for kind in parts.devices)
    if parts.cores is None:
        template = _("{system}, {devices}") if devices else "{system}"
    else:
        template = _("{system}, {cores} CPU cores, {devices}") if devices else _("{system}, {cores} CPU cores")
    return str(template).format(system=system, cores=parts.cores, devices=devices)
