"""Which index can serve this torch: a local version label (+cu126, +cpu) never comes from PyPI or its mirrors."""
import importlib.metadata as md

import torch
from packaging.requirements import Requirement
from packaging.version import Version

installed = Version(md.version("torch"))  # what pip recorded from the wheel's file name and metadata
print("pip metadata:", installed, " torch.__version__:", torch.__version__, " CUDA:", torch.version.cuda)
cuda = [Requirement(r) for r in md.requires("torch") or [] if Requirement(r).name.startswith(("nvidia-", "cuda-"))]
print("CUDA wheels it requires:", [r.name for r in cuda] or "none")
print("label on the installed wheel:", installed.local,
      "-> PyPI or a PyPI mirror" if installed.local is None else "-> download.pytorch.org")
cpu_build = Version("2.13.0+cpu")  # the form of the builds that PyTorch's own index serves
print(f"{cpu_build}: label {cpu_build.local!r}, served by download.pytorch.org/whl/{cpu_build.local}, not by PyPI")

assert installed.public == Version(torch.__version__).public  # same release, with or without the label
assert all(r.url is None for r in cuda)  # NVIDIA's CUDA wheels are found by name on an index
