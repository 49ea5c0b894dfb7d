"""What the installed jax asks of a TPU VM: the Python it needs, and the libtpu that jax[tpu] pins."""
import importlib.metadata as md
import platform

import jax
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet


def installed_version(name):
    try:
        return md.version(name)
    except md.PackageNotFoundError:
        return None


python_here = platform.python_version()
floor = {name: SpecifierSet(md.metadata(name)["Requires-Python"]) for name in ("jax", "jaxlib")}
(libtpu,) = [r for r in map(Requirement, md.requires("jax"))
             if r.name == "libtpu" and r.marker is not None and r.marker.evaluate({"extra": "tpu"})]
libtpu_here = installed_version("libtpu")

for name, spec in floor.items():
    print(f"{name} {md.version(name)}: Requires-Python {spec}")
print(f"this Python: {python_here}")
print(f"jax[tpu] adds: libtpu{libtpu.specifier}")
print(f"libtpu here: {libtpu_here or 'not installed'}, default backend: {jax.default_backend()}")

for spec in floor.values():
    assert spec.contains(python_here, prereleases=True)  # pip checked this when it installed them
if jax.__version__ == "0.12.0.1":  # the release this site pins: the numbers on the page
    assert all(str(spec) == ">=3.12" for spec in floor.values())
    assert not any(spec.contains("3.11.7") for spec in floor.values())  # no Python 3.11
    assert str(libtpu.specifier) == "==0.0.50.*"
    assert libtpu.specifier.contains("0.0.50") and libtpu.specifier.contains("0.0.50.1")  # any 0.0.50 fix
    assert not libtpu.specifier.contains("0.0.51") and not libtpu.specifier.contains("0.0.42.1")
if libtpu_here is not None:
    assert libtpu.specifier.contains(libtpu_here), f"libtpu {libtpu_here} is not what jax[tpu] asks for"
