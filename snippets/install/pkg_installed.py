"""Which JAX distributions are installed: jax, jaxlib, and any accelerator plugin."""
import importlib.metadata as md
import importlib.util

import jax

NAMES = ["jax", "jaxlib", "jax-cuda13-plugin", "jax-cuda13-pjrt", "jax-cuda12-plugin", "jax-cuda12-pjrt", "libtpu"]


def installed_version(name):
    try:
        return md.version(name)
    except md.PackageNotFoundError:
        return None


versions = {name: installed_version(name) for name in NAMES}
for name, version in versions.items():
    print(f"{name:18s} {version or 'not installed'}")

plugins = [name for name in NAMES[2:] if versions[name]]
entry_points = [ep.value for ep in md.entry_points(group="jax_plugins")]  # how plugins announce themselves
namespace = importlib.util.find_spec("jax_plugins")  # the other way: modules under jax_plugins/
print("accelerator plugins:     ", plugins or "none")
print("jax_plugins entry points:", entry_points or "none")
print("jax_plugins package:     ", "present" if namespace else "none")
print(f"default backend: {jax.default_backend()}, {jax.device_count()} devices")

assert versions["jax"] == jax.__version__  # the distribution and the module agree
assert versions["jaxlib"] is not None  # jax cannot be imported without jaxlib
if not plugins and not entry_points and namespace is None:
    assert jax.default_backend() == "cpu"  # jaxlib alone runs on the CPU only
