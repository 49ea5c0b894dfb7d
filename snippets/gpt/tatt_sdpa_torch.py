"""Which kernels PyTorch's scaled_dot_product_attention can pin here, with and without dropout_p."""
import warnings

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.utils._python_dispatch import TorchDispatchMode


class AtenOps(TorchDispatchMode):
    """Records the ATen operators that run inside the with block."""

    def __init__(self):
        super().__init__()
        self.names = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.names.append(str(func.overloadpacket).removeprefix("aten."))
        return func(*args, **(kwargs or {}))


def attend(backend, dropout_p):
    """Runs causal SDPA pinned to one backend; returns the output, or the reason it cannot run."""
    with warnings.catch_warnings(record=True) as caught:  # PyTorch warns why a pinned kernel was refused
        warnings.simplefilter("always")
        try:
            with sdpa_kernel(backend):
                return F.scaled_dot_product_attention(q, k, v, is_causal=True, dropout_p=dropout_p), None
        except RuntimeError as err:
            reasons = " ".join(str(w.message).split(" (Triggered")[0] for w in caught)
            return None, str(err).split(".")[0] + "." + (f" Warned: {reasons}" if reasons else "")


torch.manual_seed(0)
B, N, T, H = 2, 4, 16, 8  # SDPA's layout: (batch, heads, sequence, head_dim)
q, k, v = (torch.randn(B, N, T, H) for _ in range(3))
print(f"torch {torch.__version__}, device {q.device}")
BACKENDS = [SDPBackend.MATH, SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.CUDNN_ATTENTION]
runs = {}
for dropout_p in (0.0, 0.1):
    print(f"dropout_p={dropout_p}:")
    for backend in BACKENDS:
        out, reason = attend(backend, dropout_p)
        runs[backend.name, dropout_p] = out is not None
        print(f"  {backend.name:20s}", "runs" if out is not None else f"raises: {reason}")

# Without a pin, SDPA picks the kernel itself: the operators it dispatched to say which one.
for dropout_p in (0.0, 0.1):
    with AtenOps() as ops:
        F.scaled_dot_product_attention(q, k, v, is_causal=True, dropout_p=dropout_p)
    chosen = [name for name in ops.names if "scaled_dot_product" in name] or ["math (" + ", ".join(
        name for name in dict.fromkeys(ops.names) if name in ("bmm", "_safe_softmax", "bernoulli_", "div_")) + ")"]
    print(f"no pin, dropout_p={dropout_p}: {chosen[0]}")

with sdpa_kernel(SDPBackend.MATH):
    math = F.scaled_dot_product_attention(q, k, v, is_causal=True)
with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
    flash = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print(f"math vs flash (CPU), float32: max |difference| = {(math - flash).abs().max().item():.1e}")
assert torch.allclose(math, flash, atol=1e-5)

# SDPA has no training mode: dropout_p applies whenever it is not 0, so a module passes
# dropout_p=self.p if self.training else 0.0, as nn.MultiheadAttention does.
torch.manual_seed(1)
train = F.scaled_dot_product_attention(q, k, v, is_causal=True, dropout_p=0.1)
print(f"dropout_p=0.1 vs 0.0: max |difference| = {(train - math).abs().max().item():.2f}")
assert not torch.allclose(train, math)
if q.device.type == "cpu":  # the CPU's kernels in PyTorch 2.13.0
    assert runs == {("MATH", 0.0): True, ("FLASH_ATTENTION", 0.0): True, ("EFFICIENT_ATTENTION", 0.0): False,
                    ("CUDNN_ATTENTION", 0.0): False, ("MATH", 0.1): True, ("FLASH_ATTENTION", 0.1): False,
                    ("EFFICIENT_ATTENTION", 0.1): False, ("CUDNN_ATTENTION", 0.1): False}, runs
