"""Every wheel that jax and jax[cuda13] name is an ordinary PyPI project: no local label, no URL."""
import importlib.metadata as md

from packaging.requirements import Requirement
from packaging.version import Version

for name in ("jax", "jaxlib"):
    version = Version(md.version(name))
    print(f"{name} {version}: local label {version.local}")
    assert version.local is None  # a version PyPI accepts, so a PyPI mirror has it

requirements = [Requirement(r) for r in md.requires("jax")]
cuda13 = [r for r in requirements if r.marker is not None and r.marker.evaluate({"extra": "cuda13"})]
print("jax[cuda13] ->", [str(r).split(";")[0] for r in cuda13])
assert {r.name for r in cuda13} == {"jaxlib", "jax-cuda13-plugin"} and all(r.url is None for r in cuda13)

try:  # the plugin's own requirements, where it is installed (the NVIDIA wheels of its with-cuda extra)
    nvidia = sorted({Requirement(r).name for r in md.requires("jax-cuda13-plugin") if "nvidia" in r})
    print("jax-cuda13-plugin[with-cuda] ->", nvidia)
except md.PackageNotFoundError:
    print("jax-cuda13-plugin: not installed here, so its NVIDIA wheels cannot be listed")

import jax  # the last check of any install: jaxlib starts, and finds the devices its plugins serve

devices = jax.devices()
print(f"jax.devices(): {len(devices)} × {devices[0].platform}, default backend {jax.default_backend()}")
assert devices and jax.default_backend() in {"cpu", "gpu", "tpu"}
