"""The GPT section's model, written out in each of its programs, is the same model in every copy
(architecture review F21).

Each snippet is a complete program, so the section's PyTorch GPT and its Flax NNX port stand in
about twenty files. A fix made in one copy and not the others would let the pages disagree in
silence, so every copy of a model class must equal the one on the port page (compared as Python
syntax: comments and layout may differ), except in the programs whose subject is a changed model,
listed in ``VARIANTS`` with what their page says changes.
"""

from __future__ import annotations

import ast
import functools

import pytest

from tools.site import ROOT

GPT = ROOT / "snippets" / "gpt"
CLASSES = ("CausalSelfAttention", "Block", "GPT", "ScanGPT")
# Where each class is written first: the port page's programs, and deep-stacks' for the scanned stack.
CANONICAL = {"torch": "port_parity_torch.py", "nnx": "port_parity_jax.py", "ScanGPT": "gdeep_stack.py"}
VARIANTS = {
    "gen_cache_jax.py": "gpt/generate: the attention reads and writes a KV cache",
    "gen_cache_torch.py": "gpt/generate: the attention returns its keys and values",
    "gstep_bf16.py": "gpt/train-step: the layers take a matmul and a stream dtype",
    "gmix_policies.py": "gpt/mixed-precision: gstep_bf16.py's classes, which take a matmul and a stream dtype",
}


def model_classes(path) -> dict[tuple[str, str], str]:
    """(class name, "torch" or "nnx") -> the class as normalised source; `Torch` prefixes dropped.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp(), "a.py")
    >>> _ = p.write_text("class TorchBlock(nn.Module):  # PyTorch\\n    pass\\nclass Block(nnx.Module):\\n    x = 1\\n")
    >>> sorted(model_classes(p))
    [('Block', 'nnx'), ('Block', 'torch')]
    """
    found = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        name = node.name.removeprefix("Torch") if isinstance(node, ast.ClassDef) else None
        if name in CLASSES and node.bases:
            kind = "torch" if ast.unparse(node.bases[0]) == "nn.Module" else "nnx"
            source = ast.unparse(node)
            for torch_name in ("TorchCausalSelfAttention", "TorchBlock", "TorchGPT"):
                source = source.replace(torch_name, torch_name.removeprefix("Torch"))
            found[(name, kind)] = source
    return found


@functools.cache
def canonical() -> dict[tuple[str, str], str]:
    found = {key: src for key, src in model_classes(GPT / CANONICAL["torch"]).items() if key[1] == "torch"}
    found |= {key: src for key, src in model_classes(GPT / CANONICAL["nnx"]).items() if key[1] == "nnx"}
    found |= {key: src for key, src in model_classes(GPT / CANONICAL["ScanGPT"]).items() if key[0] == "ScanGPT"}
    return found


COPIES = sorted(p for p in GPT.glob("*.py") if model_classes(p) and p.name not in VARIANTS)


def test_the_canonical_classes_are_found():
    assert sorted(canonical()) == [("Block", "nnx"), ("Block", "torch"), ("CausalSelfAttention", "nnx"),
                                   ("CausalSelfAttention", "torch"), ("GPT", "nnx"), ("GPT", "torch"), ("ScanGPT", "nnx")]
    assert len(COPIES) >= 15 and all((GPT / name).exists() for name in VARIANTS)


@pytest.mark.parametrize("path", COPIES, ids=lambda p: p.name)
def test_every_copy_of_the_model_is_the_port_pages_model(path):
    reference = canonical()
    for key, source in model_classes(path).items():
        assert source == reference[key], (
            f"{path.name}: {key[1]} {key[0]} differs from {CANONICAL[key[0] if key[0] == 'ScanGPT' else key[1]]}; "
            "change every copy, or list the program in VARIANTS with what its page says changes")


def test_a_changed_copy_is_caught(tmp_path):
    changed = tmp_path / "copy.py"
    source = (GPT / CANONICAL["nnx"]).read_text(encoding="utf-8")
    assert "epsilon=1e-5" in source
    changed.write_text(source.replace("epsilon=1e-5", "epsilon=1e-6", 1), encoding="utf-8")
    assert any(src != canonical()[key] for key, src in model_classes(changed).items())
