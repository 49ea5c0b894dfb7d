"""PyTorch + Triton: a fused row softmax, one program per row, run by Triton's interpreter."""
import os
import subprocess
import sys

TRITON_PROGRAM = r'''
import numpy as np
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)  # BLOCK is a power of two >= n_cols
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)  # subtract the row maximum: exp cannot overflow
    e = tl.exp(x)  # exp(-inf) = 0: the masked lanes drop out of the sum
    tl.store(out_ptr + row * n_cols + cols, e / tl.sum(e, axis=0), mask=mask)


rows, cols = 16, 100
x_np = np.random.default_rng(0).normal(size=(rows, cols)).astype(np.float32) * 4
x = torch.from_numpy(x_np)
out = torch.empty_like(x)
softmax_kernel[(rows,)](x, out, cols, BLOCK=triton.next_power_of_2(cols))
e = np.exp(x_np.astype(np.float64) - x_np.max(axis=1, keepdims=True))
numpy_ref = e / e.sum(axis=1, keepdims=True)  # float64 NumPy, the judge for both tabs
print("block:", triton.next_power_of_2(cols), "programs:", rows)
print(f"max |triton - torch.softmax|: {(out - torch.softmax(x, dim=1)).abs().max().item():.1e}")
print(f"max |triton - float64 NumPy|: {np.abs(out.numpy() - numpy_ref).max():.1e}")
assert torch.allclose(out, torch.softmax(x, dim=1), atol=1e-6, rtol=1e-5)
assert np.allclose(out.numpy(), numpy_ref, atol=1e-6, rtol=1e-5)
'''
child = subprocess.run([sys.executable, "-c", TRITON_PROGRAM], capture_output=True, text=True,
                       env={**os.environ, "TRITON_INTERPRET": "1"})  # read at import: child
print(child.stdout, end="")
assert child.returncode == 0 and child.stderr == "", child.stderr[-2000:]
