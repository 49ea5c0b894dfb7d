"""JAX: jax and jaxlib carry no CUDA label and need no CUDA; a separate plugin brings it."""
import importlib.metadata as md

import jax

jaxlib_version = md.version("jaxlib")
cuda_packages = [r for r in md.requires("jaxlib") or [] if "cuda" in r or "nvidia" in r]
plugins = sorted(name for d in md.distributions() if (name := d.metadata["Name"] or "").startswith("jax-cuda"))
print("jax.__version__:          ", jax.__version__)
print("pip's version of jaxlib:  ", jaxlib_version)
print("CUDA packages it requires:", len(cuda_packages))
print("CUDA plugins installed:   ", plugins or "none")
for plugin in plugins:  # the public route: the CUDA wheels that each plugin's metadata asks pip for
    print(f"  {plugin} requires:", [r.split(";")[0] for r in md.requires(plugin) or [] if "nvidia" in r])
print("default backend:          ", jax.default_backend())

# How it works, private and unstable: jax._src.lib.cuda_versions is set only when a CUDA plugin is installed.
from jax._src.lib import cuda_versions  # noqa: E402

if cuda_versions is None:
    print("CUDA the plugin was built with: no plugin, so nothing to ask")
else:
    print("CUDA the plugin was built with:", cuda_versions.cuda_runtime_build_version())
assert (cuda_versions is None) == (not any(p.endswith("-plugin") for p in plugins))  # set exactly with a plugin
assert "+" not in jax.__version__ and "+" not in jaxlib_version  # the same jaxlib for CPU and GPU
assert not cuda_packages  # CUDA comes with the plugin, never with jaxlib
