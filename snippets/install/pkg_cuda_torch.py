"""PyTorch: one wheel per CUDA build, named by a local version label and by torch.version.cuda."""
import importlib.metadata as md

import torch

public, _, label = torch.__version__.partition("+")
cuda_packages = [r.split(";")[0] for r in md.requires("torch") or [] if "cuda" in r or "nvidia" in r]
print("pip's version of torch:   ", md.version("torch"))
print("torch.__version__:        ", torch.__version__)
print("torch.version.cuda:       ", torch.version.cuda)
print("torch.cuda.is_available():", torch.cuda.is_available())
print("CUDA packages it requires:", len(cuda_packages))

assert md.version("torch") in (public, torch.__version__)  # with or without the label
if torch.version.cuda is not None:
    assert label == "cu" + torch.version.cuda.replace(".", "")  # e.g. +cu130 for CUDA 13.0
    assert cuda_packages  # the CUDA libraries come with the wheel, GPU or not
