"""What pip installs for jax and its extras: the accelerator extras pin jaxlib and the plugin to jax's version."""
import importlib.metadata as md

import jax
from packaging.requirements import Requirement

version = jax.__version__
requirements = [Requirement(text) for text in md.requires("jax")]


def needs(extra):
    """The requirements that `pip install jax[extra]` adds, or plain `pip install jax` for None."""
    if extra is None:
        return [r for r in requirements if r.marker is None]
    return [r for r in requirements if r.marker is not None and r.marker.evaluate({"extra": extra})]


def jaxlib_range(reqs):
    return {str(spec) for r in reqs if r.name == "jaxlib" for spec in r.specifier}


def show(reqs):
    return ", ".join(str(r).split(";")[0] for r in reqs) or "nothing more"  # drop the `extra ==` marker


print("jax".ljust(17), "->", show(r for r in needs(None) if r.name == "jaxlib"))
for extra in ("cpu", "cuda13", "cuda13-local", "cuda12", "tpu"):
    print(f"jax[{extra}]".ljust(17), "->", show(needs(extra)))

assert jaxlib_range(needs(None)) == {f"<={version}", f">={jax.version._minimum_jaxlib_version}"}
assert needs("cpu") == []  # jax[cpu] installs the same as plain jax
for extra in ("cuda13", "cuda13-local", "cuda12", "tpu"):
    assert jaxlib_range(needs(extra)) == {f"<={version}", f">={version}"}  # exactly jax's version
for extra, plugin in (("cuda13", "jax-cuda13-plugin"), ("cuda13-local", "jax-cuda13-plugin"),
                      ("cuda12", "jax-cuda12-plugin")):
    (spec,) = [r.specifier for r in needs(extra) if r.name == plugin]
    assert {str(s) for s in spec} == {f"<={version}", f">={version}"}  # the plugin too
cuda13 = {r.name: r for r in needs("cuda13")}
local = {r.name: r for r in needs("cuda13-local")}
assert cuda13["jax-cuda13-plugin"].extras == {"with-cuda"}  # CUDA from NVIDIA's pip wheels
assert local["jax-cuda13-plugin"].extras == set()  # CUDA installed on the machine
assert "libtpu" in {r.name for r in needs("tpu")}
