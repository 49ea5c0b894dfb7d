"""PyTorch + Triton: a SiLU kernel made differentiable with torch.autograd.Function."""
import os
import subprocess
import sys

# TRITON_INTERPRET must be set before `import triton`: run the Triton program in a fresh process.
TRITON_PROGRAM = r'''
import numpy as np
import torch
import triton
import triton.language as tl

BLOCK = 8


@triton.jit
def silu_fwd_kernel(x_ptr, o_ptr, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets)
    tl.store(o_ptr + offsets, x * tl.sigmoid(x))


@triton.jit
def silu_bwd_kernel(x_ptr, g_ptr, dx_ptr, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets)
    s = tl.sigmoid(x)  # recomputed from x: the only saved tensor is the input
    tl.store(dx_ptr + offsets, tl.load(g_ptr + offsets) * (s + x * s * (1.0 - s)))


class SiLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        out = torch.empty_like(x)
        silu_fwd_kernel[(x.numel() // BLOCK,)](x, out, BLOCK=BLOCK)
        return out

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        dx = torch.empty_like(x)
        silu_bwd_kernel[(x.numel() // BLOCK,)](x, g.contiguous(), dx, BLOCK=BLOCK)
        return dx


x = torch.linspace(-4.0, 4.0, 32, requires_grad=True)
(SiLU.apply(x) ** 2).sum().backward()
x_ref = x.detach().clone().requires_grad_()
(torch.nn.functional.silu(x_ref) ** 2).sum().backward()  # the reference, differentiated by autograd
print("grad max error:", float((x.grad - x_ref.grad).abs().max()))
assert torch.allclose(x.grad, x_ref.grad, atol=1e-5)
print("torch.library.triton_op:", callable(torch.library.triton_op),
      "| torch.library.wrap_triton:", callable(torch.library.wrap_triton),
      "| triton.autotune:", callable(triton.autotune))
'''
child = subprocess.run([sys.executable, "-c", TRITON_PROGRAM], capture_output=True, text=True,
                       env={**os.environ, "TRITON_INTERPRET": "1"})
print(child.stdout, end="")
assert child.returncode == 0 and child.stderr == "", child.stderr[-2000:]
assert "triton_op: True | torch.library.wrap_triton: True | triton.autotune: True" in child.stdout
