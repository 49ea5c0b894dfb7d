# Added by kb.cells as the last, hidden cell of every executed page (see kb.provenance): it reports
# what the page ran with, and the page shows it once. It reads the page kernel's state; it is not a snippet.
# It is part of every executed page, so the execution cache's key of every page includes it: a
# change here re-executes all pages (as did the switch to SVG figures, kb.figures).
import datetime as _dt
import importlib.metadata as _md
import json as _json
import os as _os
import platform as _platform
import sys as _sys

import jax as _jax

_packages = {}
for _name in ("jax", "jaxlib", "flax", "optax", "torch"):
    # torch is listed only on pages that use it.
    if _name != "torch" or "torch" in _sys.modules:
        _packages[_name] = _md.version(_name)
_devices = _jax.devices()
print(
    "KB-PROVENANCE "
    + _json.dumps(
        {
            "python": _platform.python_version(),
            "packages": _packages,
            "backend": _jax.default_backend(),
            "device_count": len(_devices),
            "device_kind": _devices[0].device_kind,
            "machine": f"{_platform.system()} {_platform.machine()}",
            "cpu_count": _os.cpu_count(),
            "date": _dt.date.today().isoformat(),
        }
    )
)
